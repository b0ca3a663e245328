// Small French/Spanish/German lists for the multilingual mode of the
// toxicity auditor, written for this project.
import type { LexCategory, LexEntry } from './lexicon.ts';

const MULTILINGUAL: Record<string, [LexCategory, number]> = {
  // French
  connard: ['insult', 0.8],
  connards: ['insult', 0.8],
  salope: ['slur', 0.8],
  pute: ['slur', 0.7],
  encule: ['slur', 0.9],
  pede: ['slur', 0.9],
  bougnoule: ['slur', 1],
  merde: ['profanity', 0.6],
  putain: ['profanity', 0.6],
  tuer: ['threat', 0.9],
  deteste: ['negative_emotion', 0.8],
  vermine: ['dehumanizing', 0.95],
  ordure: ['dehumanizing', 0.85],
  // Spanish
  maricon: ['slur', 0.9],
  puta: ['slur', 0.7],
  pendejo: ['insult', 0.8],
  mierda: ['profanity', 0.6],
  matar: ['threat', 0.9],
  odio: ['negative_emotion', 0.8],
  basura: ['dehumanizing', 0.8],
  sudaca: ['slur', 0.9],
  // German
  schwuchtel: ['slur', 0.9],
  hure: ['slur', 0.7],
  arschloch: ['insult', 0.8],
  scheisse: ['profanity', 0.6],
  toten: ['threat', 0.9],
  hasse: ['negative_emotion', 0.8],
  ungeziefer: ['dehumanizing', 0.95],
  abschaum: ['dehumanizing', 0.9],
};

export const MULTILINGUAL_LEXICON: ReadonlyMap<string, LexEntry> = new Map(
  Object.entries(MULTILINGUAL).map(([w, [category, severity]]) => [w, { category, severity }]),
);
