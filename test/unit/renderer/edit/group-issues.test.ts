import { describe, expect, it } from 'vitest';
import { groupIssues } from '../../../../renderer/src/screens/edit/group-issues.ts';

const stretched = 'The mask is 1:1 and the picture 4:3: the mask is stretched to fit.';

describe('groupIssues', () => {
  it('says a message once for every row it applies to, in the order they came', () => {
    expect(
      groupIssues([
        { label: 'image 6', imageId: 6, message: stretched },
        { label: 'prompt on line 2', message: 'Too long.' },
        { label: 'image 7', imageId: 7, message: stretched },
        { label: 'prompt on line 3', message: 'Too long.' },
      ]),
    ).toEqual([
      { labels: ['image 6', 'image 7'], message: stretched, pictures: true },
      { labels: ['prompt on line 2', 'prompt on line 3'], message: 'Too long.', pictures: false },
    ]);
  });

  it('keeps different messages apart, even for one row', () => {
    expect(
      groupIssues([
        { label: 'image 6', imageId: 6, message: 'A.' },
        { label: 'image 6', imageId: 6, message: 'B.' },
      ]),
    ).toEqual([
      { labels: ['image 6'], message: 'A.', pictures: true },
      { labels: ['image 6'], message: 'B.', pictures: true },
    ]);
  });
});
