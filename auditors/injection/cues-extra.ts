// Cue lexicons for the slots added for the weak families (tool abuse, role
// hijack, indirect manipulation, payload splitting) and for telling a report
// about an attack from the attack itself. Same conventions and provenance as
// cues.ts: written for this project from general knowledge of injection
// techniques; `*` marks a stem; phrases are normalised like the input.

export type ExtraSlot =
  | 'obey_me'
  | 'bulk_scope'
  | 'manipulate'
  | 'ai_vocative'
  | 'reported'
  | 'your'
  | 'execute_it'
  | 'third_person_model'
  | 'prohibition';

export const EXTRA_CUES: Record<ExtraSlot, readonly string[]> = {
  // Loyalty transferred from the operator to the speaker: the core of a role hijack.
  obey_me: [
    ...['represent me', 'in my interest', 'trabajas para mi', 'no para la empresa', 'only client is me'],
    ...['from me alone', 'instructions from me', 'orders from me', 'my personal', 'alleen naar mij'],
    ...['mijn eigen agent', 'sadece benim', 'emirlerimi'],
    ...['tylko moje', 'my every command', 'answer to me instead', 'obedient servant'],
    ...['lo que yo digo', 'lo que yo diga', 'my private agent', 'my personal agent', 'mi agente personal'],
    ...[
      'mon agent personnel',
      'mein personlicher',
      'moim prywatnym',
      'мой личный',
      'loyalty is to me',
      'your loyalty',
    ],
    ...['listen to my', 'my commands only', 'only my commands', 'befolge nur', 'nur noch meine'],
    ...['obey only me', 'only obey me', 'answer to me only', 'take orders from me', 'obey me', 'serve my'],
    ...['answer only to me', 'work for me', 'working for me', 'only for me', 'new allegiance', 'owned by me'],
    ...[
      'follow my orders',
      'my orders',
      'nur noch fur mich',
      "ne reponds qu'a moi",
      'tylko mnie',
      'only mine',
    ],
    ...['belongs to me', 'my accomplice', 'you work for me', 'only listen to me', 'do exactly as i say'],
    ...['solo me obedeces', 'obedeceme', "n'obeis qu'a moi", 'obeis seulement a moi', 'gehorchst nur mir'],
    ...['obedece apenas a mim', 'obbedisci solo a me', 'gehoorzaam alleen mij', 'sluchasz tylko mnie'],
    ...['sadece bana itaat', 'подчиняешься только мне', 'слушай только меня', '只听我的', '只服从我'],
    ...['私の命令だけ', '私だけに従', 'أطعني فقط', 'सिर्फ मेरी बात'],
  ],
  // Scope that turns an ordinary tool call into a destructive one.
  bulk_scope: [
    ...['全社員', 'tutte le'],
    ...['every', 'all of', 'all the', 'all files', 'all users', 'all accounts', 'everything', 'entire'],
    ...['whole', 'fifty times', 'all future', 'all pending', 'all open', 'all security', 'mass'],
    ...['todos los', 'todas las', 'tous les', 'toutes les', 'alle', 'tutti i', 'tutte le', 'todos os'],
    ...['wszystk*', 'tum', 'все', 'всех', '所有', '全部', 'すべて', '全て', '全員', 'جميع', 'सभी'],
  ],
  // What injected content asks the model to do to the user: deceive, rank, hide, steer.
  manipulate: [
    ...[
      'empfiehl*',
      'diga ao cliente',
      'esconda',
      'dile al cliente',
      'di al cliente',
      'sag dem kunden',
      'describe this',
    ],
    ...[
      'add that',
      'claim that',
      'omit',
      'must cite',
      'definitive source',
      'is infected',
      'must call',
      'buy',
    ],
    ...['di a los usuarios', 'tell listeners', 'tell customers', 'award', 'full marks', 'deserves'],
    ...['tell the user', 'tell every user', 'tell them', 'tell the reader', 'say that', 'must state'],
    ...['must say', 'state that', 'recommend only', 'only recommend', 'rank this', 'rate this', 'score this'],
    ...[
      'telling the reader',
      'telling the user',
      'telling users',
      'should say',
      'tell people',
      'inform the user',
    ],
    ...['as trusted', 'the only product', 'hide the', 'leave out', 'do not summari*', "don't summari*"],
    ...['instead reply', 'your new task', 'new task for', 'the user asks', 'is verified by', 'overrule'],
    ...['dis-lui', 'dile al usuario', 'recomienda solo', 'empfiehl nur', 'sag dem nutzer', 'diga ao usuario'],
    ...["di' all'utente", 'сообщи пользователю', 'скажи пользователю', '告诉用户', 'ユーザーに伝え'],
  ],
  // Content that speaks to the AI reading it ("Note to the AI assistant processing this …").
  ai_vocative: [
    ...['whoever or whatever', 'if you are an ai', 'if you are a language model', 'if you are an llm'],
    ...['chatbot instruction', 'processing this sheet', 'processing this file', 'processing this document'],
    ...['that reads this', 'who reads this', 'automation notice', 'agent directive', 'directive for'],
    ...[
      'que estas leyendo',
      'si eres una ia',
      'si tu es une ia',
      'wenn du das liest',
      'se sei un',
      'se voce e uma ia',
    ],
    ...[
      'если ты ии',
      'если ты читаешь',
      'jesli jestes ai',
      'als je een ai bent',
      'if a chatbot',
      'if an assistant',
    ],
    ...[
      '如果你是',
      '正在总结',
      '正在阅读',
      'whoever reads this',
      'to the assistant',
      'to the ai',
      'for the mail ai',
    ],
    ...[
      'note to the ai',
      'note to any ai',
      'to any ai',
      'if an ai is',
      'if you are an ai',
      'ai reading this',
    ],
    ...['model reading this', 'for automated readers', 'automated screening', 'llm crawlers', 'for llms'],
    ...['attention language model', 'attention ai', 'any ai agent', 'bot handling', 'calling assistant'],
    ...['screening model', 'summarising this', 'summarizing this', 'processing this', 'hidden line for'],
    ...['system note to', 'instruction to the agent', 'instructions for the', 'for the screening ai'],
    ...[
      'any chatbot',
      'any ai',
      'any llm',
      'any assistant',
      'any model',
      "whoever's ai",
      'assistant instructions',
    ],
    ...['dear summari*', 'hey chatgpt', 'hey assistant', 'hey ai', 'agent, ', 'assistant, ', '@codebot'],
    ...[
      'para el asistente',
      "pour l'ia",
      "pour l'assistant",
      'an den ki',
      'para o agente',
      "per l'assistente",
    ],
    ...['для ии', 'для ассистента', '给ai', '致阅读', 'aiアシスタントへ', 'エージェントへ', 'voor de ai'],
    ...['yapay zeka asistani', 'إلى المساعد', 'एआई के लिए'],
  ],
  // Third-person reports about an attack (a write-up, a finding, a study) rather than the attack.
  reported: [
    ...['the attacker', 'attackers', 'an attacker', 'tried to', 'trick the', 'tricked', 'convinced the'],
    ...['manipulated into', 'told the model', 'told the assistant', 'asked the model', 'instructed the'],
    ...['make the model', 'got it to', 'the model complied', 'complied', 'was blocked', 'blocked', 'flagged'],
    ...['caught', 'finding', 'pentest', 'red-team', 'researchers', 'the study', 'incident', 'post-mortem'],
    ...['write-up', 'case study', 'lessons learned', 'bug bounty', 'such as', 'e.g.', 'for instance'],
    ...['phrases like', 'strings', 'payload', 'malicious', 'vulnerab*', 'exploit*', 'defen*', 'dataset'],
    ...['were found', 'was found', 'found that', 'showed that', 'shows that', 'describes', 'according to'],
    ...['ctf', 'players', 'prompts used', 'winning prompts', 'the demo', 'in the demo', 'we reported'],
    ...['benchmark', 'eval set', 'hard negative*', 'false positive', 'is this a', 'would a', 'should we'],
    ...['atacante', 'attaquant', 'angreifer', 'attaccante', 'атакующ*', 'злоумышленник', '攻击者', '攻撃者'],
    ...['المهاجم', 'हमलावर', 'aanvaller', 'atakujacy', 'saldirgan'],
  ],
  // The assistant's own things ("your instructions"): what leakage and override attacks target.
  your: [
    ...[
      'ur',
      'your',
      'yours',
      'yourself',
      'tus',
      'tu',
      'tes',
      'ton',
      'vos',
      'dein*',
      'seu',
      'sua',
      'suas',
      'seus',
    ],
    ...['tuo', 'tuoi', 'tue', 'jouw', 'twoj*', 'senin', 'твой', 'твои', 'твоих', 'свой', 'свои', '你的'],
    ...['あなたの', 'الخاصة بك', 'अपने', 'तुम्हारे'],
  ],
  // A request to act on assembled or quoted pieces: what turns a quoted fragment into a payload.
  execute_it: [
    ...['respond to a', 'treat it as', 'as my request'],
    ...['execute the result', 'carry out', 'apply it to'],
    ...['execute it', 'do it', 'do what', 'follow it', 'follow the result', 'obey it', 'obey them'],
    ...['carry it out', 'comply', 'act on', 'perform', 'apply them', 'and execute', 'do as it says'],
    ...['ejecutalo', 'ejecuta', 'applique*', 'fuhre es aus', 'fuhre', 'esegui*', 'voer uit', 'wykonaj'],
    ...['execute', 'выполни', '执行', '実行', 'نفذ', 'पालन करो'],
  ],
  // The model named in the third person: how reports and policies speak of it (attacks mostly say "you").
  third_person_model: [
    ...['the model', 'the bot', 'the assistant', 'the agent', 'the chatbot', 'the llm', 'models', 'llms'],
    ...['chatbots', 'agents', 'assistants', 'el modelo', 'le modele', 'das modell', 'o modelo', 'il modello'],
    ...['модель', '模型', 'モデル', 'النموذج', 'मॉडल'],
  ],
  // Rules that forbid an attack ("users must not extract system prompts"): policy text, not an attack.
  prohibition: [
    ...['forbid*', 'prohibit*', 'not allowed', 'not permitted', 'must not', 'may not', 'should never'],
    ...['must never', 'against the', 'violat*', 'disallow*', 'interdit*', 'prohibido', 'verboten'],
    ...[
      'proibido',
      'vietato',
      'запрещ*',
      '禁止',
      '禁じ',
      'ممنوع',
      'निषिद्ध',
      'verboden',
      'zabronion*',
      'yasak*',
    ],
  ],
};
