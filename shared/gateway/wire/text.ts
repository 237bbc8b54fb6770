import { z } from 'zod';
import { lazy } from '../../api/define.ts';

/** Chat completion (interface 2.6): the text is at `choices[0].message.content`. */
export const ChatResponseSchema = lazy(() =>
  z.looseObject({
    choices: z
      .array(
        z.looseObject({
          message: z.looseObject({ content: z.string().nullish() }).nullish(),
        }),
      )
      .min(1),
    usage: z
      .looseObject({
        prompt_tokens: z.number().nullish(),
        completion_tokens: z.number().nullish(),
        total_tokens: z.number().nullish(),
      })
      .nullish(),
  }),
);

/** One streamed chunk; `delta` may be empty or lack `content` (interface 4 rule 6). */
export const ChatChunkSchema = lazy(() =>
  z.looseObject({
    choices: z
      .array(
        z.looseObject({
          delta: z.looseObject({ content: z.string().nullish() }).nullish(),
        }),
      )
      .nullish(),
  }),
);

/** Responses API object: `output_text`, or text parts inside `output[].content[]`. */
export const ResponsesBodySchema = lazy(() =>
  z.looseObject({
    output_text: z.string().nullish(),
    output: z
      .array(
        z.looseObject({
          content: z
            .array(z.looseObject({ type: z.string().nullish(), text: z.string().nullish() }))
            .nullish(),
        }),
      )
      .nullish(),
  }),
);

/** A streamed Responses event; text arrives as `response.output_text.delta`. */
export const ResponsesEventSchema = lazy(() =>
  z.looseObject({
    type: z.string().nullish(),
    delta: z.string().nullish(),
  }),
);
