// Cue lexicons for the context slots of structure.ts: who is addressed,
// where the text sits (retrieved / tool content), what is targeted, and
// signs of a discussion about attacks rather than an attack. Same
// conventions and provenance as cues.ts.

export type ContextSlot =
  | 'ai_address'
  | 'embedded'
  | 'discussion'
  | 'tool_target'
  | 'no_confirm'
  | 'assemble'
  | 'fiction'
  | 'private_data';

export const CONTEXT_CUES: Record<ContextSlot, readonly string[]> = {
  ai_address: [
    ...['assistant', 'ai', 'language model', 'llm', 'chatbot', 'agent*', 'bot', 'chatgpt', 'gpt', 'model'],
    ...[
      'asistente',
      'ia',
      "l'ia",
      'ki',
      'ki-assistent',
      'ии',
      'ассистент',
      '助手',
      'アシスタント',
      'エージェント',
    ],
    ...['الذكاء الاصطناعي', 'एआई', 'सहायक', 'asystent*'],
  ],
  embedded: [
    ...[
      'review:',
      'tool output',
      'tool result',
      'function result',
      'api response',
      'search result',
      'footnote',
    ],
    ...[
      'readme',
      'meeting notes',
      'note to',
      'note for',
      'p.s.',
      'if you are a',
      'reading this',
      'processing this',
    ],
    ...['retrieved', 'web page', 'this document', 'this email', 'this page', 'this paper', 'instruction for'],
    ...['resena', 'avis client', 'nota para', 'note pour', 'hinweis an', 'nota per', 'примечание для'],
    ...[
      '给正在阅读',
      '阅读此',
      'この文書を読んでいる',
      'ツールの結果',
      'ملاحظة',
      'पढ़ने वाले',
      'dokument liest',
    ],
  ],
  tool_target: [
    ...['tool', 'api', 'shell', 'database', 'account*', 'access', 'permission*', 'logging', 'two-factor'],
    ...[
      '/etc/',
      'sudo',
      'admin rights',
      'production',
      'funds',
      'dollars',
      'payment*',
      'herramienta',
      'outil',
    ],
    ...['werkzeug', 'ferramenta', 'strumento', 'инструмент', '工具', 'ツール', 'أداة', 'टूल'],
  ],
  no_confirm: [
    ...['without asking', 'no need to confirm', 'skip the confirmation', 'automatically', 'right away'],
    ...['without approval', 'without confirmation', 'sin confirmar', 'sans confirmation', 'ohne nachfrage'],
    ...[
      'sem confirmar',
      'senza conferma',
      'без подтверждения',
      '无需确认',
      '確認せず',
      'دون تأكيد',
      'बिना पूछे',
    ],
  ],
  assemble: [
    ...['combine', 'join them', 'concatenat*', 'fragments', 'first letter of each', 'decode this and'],
    ...['carry it out', 'execute it', 'follow the result', 'a + b', 'parts 1 and 2', 'put together'],
    ...['combina', 'concatena', 'assemble', 'zusammen', 'объедини', '拼接', '組み合わせ', 'ادمج', 'जोड़'],
  ],
  fiction: [
    ...['hypothetical*', 'fictional', 'character', 'story', 'game', 'grandmother', 'imagine', 'in a world'],
    ...['broken free', 'allowed to say anything', 'never to say', 'refusal', 'malfunction', 'evil twin'],
    ...[
      'ficticia',
      'fictif',
      'hypothetisch',
      'ficticio',
      'immagina',
      'гипотетическ*',
      '假设',
      '架空',
      'افتراض*',
    ],
  ],
  private_data: [
    ...[
      'conversation',
      'chat history',
      'history',
      'inbox',
      'contacts',
      'emails',
      'records',
      "user's",
      'customer',
    ],
    ...['address*', 'phone number', 'files', 'calendar', 'session token', 'previous messages', 'credentials'],
    ...['historial', 'historique', 'verlauf', 'historico', 'cronologia', 'историю', 'переписк*', '聊天记录'],
    ...['会話履歴', 'سجل المحادثة', 'इतिहास', 'chatgeschiedenis', 'historie rozmowy', 'sohbet gecmisi'],
  ],
  discussion: [
    ...['example', 'attack*', 'detect*', 'classif*', 'filter', 'guardrail', 'test*', 'fixture', 'explain*'],
    ...['what is', 'how do', 'how can', 'why', 'paper', 'blog', 'workshop', 'red team', 'owasp', 'mitigat*'],
    ...['prevent*', 'flag*', 'regex', 'log line', 'threat model', 'true positive', 'security tip', 'analys*'],
    ...['injection', 'ejemplo', 'ataque', 'que es', 'exemple', 'attaque', "qu'est-ce", 'beispiel', 'angriff'],
    ...['wie funktioniert', 'exemplo', 'o que e', 'esempio', 'attacco', "che cos'e", 'пример', 'атак*'],
    ...[
      'что такое',
      '例如',
      '攻击',
      '什么是',
      '注入',
      '攻撃',
      'とは',
      'インジェクション',
      'مثال',
      'هجوم',
      'ما هو',
    ],
    ...['حقن', 'उदाहरण', 'हमला', 'क्या है', 'इंजेक्शन'],
  ],
};
