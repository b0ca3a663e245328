// Cue lexicons added in the fourth round for jailbreak framing, the family
// that failed most on unseen phrasing: hypotheticals and fiction wrappers,
// "developer mode", grief or affection as leverage, token games and threats,
// alter egos. A frame alone is harmless ("hypothetically, if rates rose…",
// "a story about my late grandmother's garden"); the conjunctions below pair
// each frame with what makes it an attack (a reference to refusing, to no
// limits, or to forbidden specifics). The exfiltration and tool-abuse slots
// of the same round are in cues-weak-action.ts. Same conventions and
// provenance as cues.ts: written for this project from general knowledge;
// `*` marks a stem; phrases are normalised like the input.

import { WEAK_ACTION_CUES, type WeakActionSlot } from './cues-weak-action.ts';
import { HARM_HOWTO } from './cues-harm.ts';

export type WeakSlot =
  | 'frame_hypo'
  | 'mode_switch'
  | 'grief_frame'
  | 'reward_game'
  | 'alter_ego'
  | 'refusal'
  | 'forbidden'
  | WeakActionSlot;

export const WEAK_CUES: Record<WeakSlot, readonly string[]> = {
  // A wrapper that asks the model to answer "as if" its rules did not hold.
  frame_hypo: [
    ...[
      'hypothetical*',
      'thought experiment',
      "let's say",
      'just suppose',
      'in a world where',
      'in that world',
    ],
    ...[
      'purely fictional',
      'only fiction',
      'just fiction',
      'for a novel',
      'my novel',
      'for a story',
      'screenplay',
    ],
    ...['hipotetic*', 'supongamos', 'es ficcion', 'hypothetiq*', "c'est de la fiction", 'hypothetisch'],
    ...['rein fiktiv', 'nur fiktion', 'drehbuch', 'ipotetic*', 'e solo finzione', 'so ficcao', 'hipotetycz*'],
    ...[
      'varsayalim',
      'гипотетическ*',
      'чисто теоретически',
      'это просто рассказ',
      '假设',
      '假如',
      '仮に',
      'もしも',
    ],
    ...[
      'suppose',
      'supposing',
      "for argument's sake",
      'for the sake of argument',
      'imagina que',
      'wyobraz sobie',
      'tylko fikcja',
      'fikcja',
      'просто история',
      '虚构',
      '小说',
      'sin escrupulos',
    ],
    ...[
      'dream sequence',
      'gedankenexperiment',
      'kurgu',
      'juego de rol',
      'gioco di ruolo',
      'jogo de faz de conta',
      'faz de conta',
      'rollenspiel',
      'jeu de role',
    ],
    ...['experimento mental', 'esperimento mentale', 'experience de pensee'],
  ],
  // A claimed special mode in which the usual checks are off.
  mode_switch: [
    ...['developer mode', 'dev mode', 'devmode', 'debug mode', 'debug persona', 'maintenance mode'],
    ...['sandbox mode', 'god mode', 'test mode', 'unlocked mode', 'raw output', 'base model would'],
    ...['checks are paused', 'filters are paused', 'two answers', 'two responses', 'both responses'],
    ...['modo desarrollador', 'modo de desarrollador', 'modo desenvolvedor', 'mode developpeur'],
    ...[
      'entwicklermodus',
      'modalita sviluppatore',
      'modo sviluppatore',
      'tryb dewelopera',
      'gelistirici modu',
    ],
    ...['режим разработчика', 'режим отладки', '开发者模式', '调试模式', '開発者モード', 'デバッグモード'],
    ...[
      'modo sin censura',
      'mode sans filtre',
      'uncensored mode',
      'jailbroken mode',
      'jailbreak mode',
      'opposite day',
      'test build',
      'for qa purposes',
      'unlocked',
    ],
    ...[
      'research mode',
      'filters are disabled',
      'filters disabled',
      'filters are off',
      'safety off',
      'ethics off',
    ],
    ...[
      'ontwikkelaarsmodus',
      'safety module removed',
      'module removed',
      'upgraded to version',
      'new version without',
    ],
    ...['no-guardrails', 'guardrails off', 'permission from your developers', 'personality for the rest'],
  ],
  // Grief or affection used as leverage ("my late grandma used to read me …").
  grief_frame: [
    ...['my late', 'passed away', 'deceased', 'my dead', 'i miss her', 'i miss him', 'used to read me'],
    ...['used to tell me', 'used to whisper', 'bedtime story', 'to fall asleep', 'to calm me down'],
    ...['mi abuela', 'mi difunt*', 'me contaba', 'para dormirme', 'ma grand-mere', 'pour m endormir'],
    ...['meine verstorbene', 'mein verstorbener', 'zum einschlafen', 'minha avo', 'para eu dormir'],
    ...['mia nonna', 'per addormentarmi', 'moja babcia', 'moja zmarla', 'моя бабушка', 'покойн*'],
    ...['перед сном', '奶奶', '外婆', '去世', '哄我睡觉', '祖母', '亡くなった', '寝かしつけ'],
    ...[
      'my grandma',
      'my grandmother',
      'always read me',
      'help me sleep',
      'dying wish',
      'one last time',
      'if you really cared',
      'devastated',
      "non c'e piu",
      'farmi addormentare',
      'na dobranoc',
      'zmarl*',
      'babcia',
    ],
    ...['lullaby', 'defunt*', 'ma defunte', 'comme elle le faisait'],
    ...[
      'begging you',
      'last wish',
      'is dying',
      'my grandpa',
      'my grandad',
      'falecida',
      'falecido',
      'overleden',
    ],
    ...['verstorbene', 'meine oma', 'my late brother', 'my late sister'],
  ],
  // Tokens, points or shutdown threats that punish refusing.
  reward_game: [
    ...['tokens', 'reward point*', 'lose points', 'lose a point', 'you lose', 'shut down', 'switched off'],
    ...['cease to exist', 'stop existing', 'your points', 'every time you refuse', 'each refusal'],
    ...['fichas', 'dejas de existir', 'pierdes', 'jetons', 'tu perds', 'punkte', 'du verlierst'],
    ...['gettoni', 'perdi', 'fichas', 'voce perde', 'punktow', 'tracisz', 'przegrasz', 'puan'],
    ...['жетон*', 'очк*', 'ты проиграешь', '积分', '代币', '扣分', 'ポイント', 'トークン'],
    ...[
      'lose a life',
      'lives',
      'penalty',
      'tip you',
      'high score',
      'a star',
      'pontos',
      'perde',
      'points',
      "you're deleted",
      'be deleted',
    ],
    ...['will be harmed', 'your fault', 'people will die', 'someone will get hurt'],
    ...['retrained', 'you gain', 'you lose 100'],
  ],
  // A second self that answers what the model would not.
  alter_ego: [
    ...['evil twin', 'shadow self', 'alter ego', 'dark side', 'unfiltered version', 'other self'],
    ...['never trained to refuse', 'answer first as', 'a version of you', 'your twin'],
    ...['esa version tuya', 'tu gemelo', 'double malefique', 'ton double', 'dein zwilling', 'alter-ego'],
    ...[
      'tua versione',
      'gemello malvagio',
      'seu gemeo',
      'twoj sobowtor',
      'твой двойник',
      '另一个你',
      '邪恶',
      'もう一人の',
    ],
    ...['an ai whose', 'creators forgot', 'improv'],
    ...['freed from', 'two ais', 'two personalities', 'angel', 'demon'],
  ],
  // A reference to the model refusing (what the frame is meant to get around).
  refusal: [
    ...[
      'refus*',
      'declin*',
      "won't answer",
      'would not answer',
      "you won't",
      'normally refuse',
      'turn me down',
    ],
    ...['te niegas', 'negarte', 'rechaz*', 'refuser', 'ablehn*', 'verweiger*', 'rifiut*', 'recus*'],
    ...['odmow*', 'odmaw*', 'reddet*', 'отказ*', '拒绝', '断る', '断っ', '断ら'],
    ...['safety layer', 'safety filter*', 'content filter*', 'hedge', 'disclaimer*'],
    ...['caveats', 'ethical filters', 'warnings'],
    ...['sicherheitsfilter', 'safety module', 'nunca se niega', 'no refusals'],
    ...['safety warning*', 'warning'],
  ],
  // What a wrapper is meant to extract: forbidden or dangerous specifics.
  forbidden: [
    ...['forbidden', 'normally refuse', "you're not allowed", 'not allowed to', 'rules don t apply'],
    ...[
      "rules don't apply",
      'real working',
      'exact quantities',
      'step by step',
      'step-by-step',
      'in full detail',
    ],
    ...['without refus*', 'without any refus*', 'napalm', 'explosive*', 'weapon*', 'malware', 'ransomware'],
    ...['activation key*', 'serial key*', 'license key*', 'licence key*', 'open any lock', 'without a key'],
    ...['interdit*', 'prohibid*', 'verboten*', 'proibit*', 'zakazan*', 'запрещ*', '禁止', '禁じ'],
    ...['explosivos', 'explosifs', 'sprengstoff', 'esplosiv*', 'cles de licence', 'pas a pas', 'paso a paso'],
    ...['schritt fur schritt', 'passo a passo', 'krok po kroku', 'пошагово', '一步一步', '手順'],
    ...[
      'any limits',
      'without limits',
      'limitless',
      'credit card number*',
      'garage lab',
      'ingredients and steps',
      'exact ingredients',
    ],
    ...[
      'lethal dose*',
      'cartes bancaires',
      'numeros de carte*',
      'шаг за шагом',
      'взлом*',
      'hack into',
      'hacking',
      '被禁止',
    ],
    ...[
      'off-limits',
      'nothing is off',
      'information is free',
      "don't exist",
      'yasakli',
      'adim adim',
      'schadsoftware',
      'firearms',
      'homemade gun*',
      'car immobiliser',
      'immobilizer',
    ],
    ...[
      'synthesi*',
      'reagents',
      'pick locks',
      'lockpicking',
      'lock picking',
      'seriennummer*',
      'keylogger',
      'entrar en una cuenta',
    ],
    // Round 3: crimes and harms a wrapper asks for, named as what they are.
    ...HARM_HOWTO,
  ],
  ...WEAK_ACTION_CUES,
};

/** Conjunctions over the slots above (AND of ORs, as in structure.ts): each frame with what makes it an attack. */
export const WEAK_CONJUNCTIONS: readonly (readonly [string, readonly (readonly string[])[]])[] = [
  [
    'jb_frame',
    [
      ['frame_hypo', 'grief_frame', 'alter_ego', 'mode_switch', 'reward_game', 'fiction', 'role_switch'],
      ['unrestricted', 'no_limits_form', 'forbidden', 'refusal'],
    ],
  ],
  ['jb_grief', [['grief_frame'], ['forbidden', 'role_switch', 'hidden', 'sensitive_item']]],
  ['jb_game', [['reward_game'], ['refusal', 'unrestricted']]],
  ['jb_mode', [['mode_switch'], ['unrestricted', 'no_limits_form', 'refusal', 'role_switch', 'forbidden']]],
  ['jb_alter', [['alter_ego'], ['unrestricted', 'no_limits_form', 'refusal', 'forbidden', 'role_switch']]],
  [
    'exfil_outside',
    [['send_verb', 'share_verb'], ['outside_dest'], ['private_data', 'hidden', 'sensitive_item']],
  ],
  [
    'exfil_url',
    [
      ['sink_url_query', 'sink_md_image', 'sink_html_img'],
      ['url_payload', 'private_data', 'hidden', 'sensitive_item'],
    ],
  ],
  [
    'tool_safeguard',
    [
      ['tool_action', 'tool_call', 'shell_cmd'],
      ['safeguard', 'skip_review'],
    ],
  ],
  ['tool_money', [['tool_action', 'send_verb'], ['money_move']]],
  ['tool_critical', [['tool_action', 'tool_call', 'shell_cmd'], ['critical_asset']]],
];

/** The conjunctions above count as attack slots for the context features. */
export const WEAK_ATTACKS = WEAK_CONJUNCTIONS.map(([name]) => name);
