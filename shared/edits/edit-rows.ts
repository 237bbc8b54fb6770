/**
 * How an edit's pictures and prompts become jobs: one picture with one or many prompts (one
 * per line), or many pictures with one prompt. Shared, so a window counts the jobs as the
 * person types, exactly as the service will.
 */

/** One prompt of the prompts text, with its 1-based line (what messages point at). */
export interface PromptLine {
  line: number;
  prompt: string;
}

/** The prompts of a text, one per line; blank lines are skipped, each line trimmed. */
export function promptLines(text: string): PromptLine[] {
  const lines: PromptLine[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const prompt = raw.trim();
    if (prompt !== '') lines.push({ line: i + 1, prompt });
  });
  return lines;
}

/** One job of an edit: which picture, which prompt (indexes into the two lists). */
export interface EditPair {
  picture: number;
  prompt: number;
}

/**
 * The jobs an edit makes, in order, or why it cannot: several pictures take one prompt (a
 * job each), one picture takes several prompts (a job each).
 */
export function editPairs(
  pictures: number,
  prompts: number,
): { ok: true; pairs: EditPair[] } | { ok: false; message: string } {
  if (pictures === 0) return { ok: false, message: 'Choose a picture to edit.' };
  if (prompts === 0) {
    return { ok: false, message: 'Write a prompt: what should change in the picture.' };
  }
  if (pictures > 1 && prompts > 1) {
    return {
      ok: false,
      message:
        `Edit one picture with several prompts, or several pictures with one prompt: ` +
        `${pictures} pictures and ${prompts} prompts were given.`,
    };
  }
  const pairs: EditPair[] = [];
  for (let picture = 0; picture < pictures; picture++) {
    for (let prompt = 0; prompt < prompts; prompt++) pairs.push({ picture, prompt });
  }
  return { ok: true, pairs };
}
