/** One message said once for every row it applies to. */
export interface IssueGroup {
  labels: string[];
  message: string;
  /** Every row of it is a gallery picture. */
  pictures: boolean;
}

/**
 * The check's problems with the same message (a mask stretched over ten 4:3 pictures) as one
 * entry naming each row, in the order they first came; a long list reads as one sentence.
 */
export function groupIssues(
  issues: readonly { label: string; message: string; imageId?: number }[],
): IssueGroup[] {
  const byMessage = new Map<string, IssueGroup>();
  for (const { label, message, imageId } of issues) {
    const picture = imageId !== undefined;
    const group = byMessage.get(message);
    if (!group) byMessage.set(message, { labels: [label], message, pictures: picture });
    else {
      group.labels.push(label);
      group.pictures &&= picture;
    }
  }
  return [...byMessage.values()];
}
