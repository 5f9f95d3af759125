import { LABELS, languageIdOf } from '#shared/view/code/language-names';
import { Prism } from '#shared/view/code/prism';

export { LANGUAGE_IDS } from '#shared/view/code/language-names';

/** A language the page highlights: its Prism grammar and the name the page shows. */
export interface Language {
  id: string;
  label: string;
}

/** The language of a text file (`languageIdOf`) with its name, where the page carries its grammar. */
export function languageOf(fileName: string, type: string): Language | undefined {
  const id = languageIdOf(fileName, type);
  const label = id === undefined ? undefined : LABELS[id];
  return id !== undefined && label !== undefined && Prism.languages[id] ? { id, label } : undefined;
}
