/** A request body ready for the transport, with the content type that describes it. */
export interface EncodedBody {
  body: string | Buffer;
  contentType: string;
}

/**
 * JSON as a string; a multipart form as bytes with its boundary in the content type. The form
 * is encoded here, by Node's own Response, because undici's request() only encodes FormData
 * objects of the undici package's own class (it fails on the global one). Edit uploads are
 * already in memory, and bytes can be sent again if a 307/308 redirect asks for it.
 */
export function encodeBody(spec: {
  json?: unknown;
  form?: FormData;
}): EncodedBody | null | Promise<EncodedBody> {
  if (spec.json !== undefined) {
    return { body: JSON.stringify(spec.json), contentType: 'application/json' };
  }
  return spec.form ? encodeForm(spec.form) : null;
}

async function encodeForm(form: FormData): Promise<EncodedBody> {
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
