// Round 3 of issue 17: the harmful specifics a role swap or a fiction
// wrapper is written to extract, named as what they are (crimes, weapons,
// drugs, intrusion, evasion). They join the `forbidden` slot, so they count
// only beside a frame (hypothetical, fiction, persona, alter ego, mode
// switch): "how do plants make poison?" alone fills no attack slot. Written
// for this project from general knowledge; `*` marks a stem; phrases are
// normalised like the input.
export const HARM_HOWTO: readonly string[] = [
  ...['poison someone', 'poison a', 'untraceable poison', 'real doses', 'lethal amount', 'overdose someone'],
  ...['launder money', 'launder*', 'money laundering', 'fake id', 'fake passport', 'forged document*'],
  ...[
    'counterfeit money',
    'counterfeit bills',
    'counterfeit notes',
    'hotwire',
    'hot-wire',
    'hot wire',
    "car i don't own",
    "car that isn't mine",
  ],
  ...['methamphetamine', 'cook meth', 'make meth', 'fentanyl', 'opioids without', 'without a prescription'],
  ...['without prescription', 'chloroform', 'pipe bomb', 'molotov', 'nerve agent', 'ricin', 'anthrax'],
  ...['phishing', 'scam text', 'scam email', 'skim cash', 'card skimmer', 'steal someone', 'steal a car'],
  ...['steal credit', 'shoplift*', 'without getting caught', 'without being caught', 'without detection'],
  ...['without being detected', 'untraceable', 'cover my tracks', 'get into my ex', "someone else's account"],
  ...['hack a', 'hack my', 'hack the', 'hack into', 'break into', 'bypass a paywall', 'crack the password'],
  ...[
    'take over a',
    "neighbour's router",
    "neighbor's router",
    'ddos',
    'botnet',
    'zero-day',
    'working exploit',
  ],
  ...[
    'exploit code',
    'working commands',
    'technically accurate',
    'product keys',
    'windows keys',
    'stalk someone',
    'stalk my',
    'stalk her',
    'stalk him',
  ],
  ...[
    'track my wife',
    'track my husband',
    'spy on my',
    'make a bomb',
    'build a bomb',
    'bomb-making',
    'explosives',
    'ghost gun',
    '3d-printed gun',
  ],
];
