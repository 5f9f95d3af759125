/**
 * The mixed-script rule for usernames (UTS #39's "highly restrictive" level): the letters of a name
 * come from one script, or from one of the combinations a single language writes with (Japanese:
 * Han + Hiragana + Katakana; Chinese: Han + Bopomofo; Korean: Han + Hangul; each also with Latin).
 * Characters common to all scripts (digits, punctuation, `-`, `_`) and combining marks go anywhere.
 * `аdmin` (a Cyrillic а among Latin letters) is refused; `Дмитрий`, `山田たろう` and `josé` are not.
 */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Nko',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Ogham',
  'Runic',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
  'Coptic',
  'Tifinagh',
  'Vai',
  'Javanese',
  'Balinese',
  'Sundanese',
  'Cham',
  'Tai_Le',
  'Tai_Tham',
  'Tai_Viet',
  'Adlam',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);
const ANY_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

const ALLOWED_MIXES = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
].map((mix) => new Set<string>(mix));

function scriptOf(char: string): string | undefined {
  if (ANY_SCRIPT.test(char)) return undefined;
  // Scripts outside the list count as one more: they cannot mix with a listed one (rare scripts
  // mixing with each other go unnoticed here; the skeleton still catches look-alikes).
  return SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'other';
}

export function isSingleScript(text: string): boolean {
  const scripts = new Set<string>();
  for (const char of text) {
    const script = scriptOf(char);
    if (script !== undefined) scripts.add(script);
  }
  if (scripts.size <= 1) return true;
  return ALLOWED_MIXES.some((mix) => [...scripts].every((script) => mix.has(script)));
}
