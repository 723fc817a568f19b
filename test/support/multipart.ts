/**
 * A multipart/form-data body as a browser's FormData sends it (fields in the order given, then the
 * file), serialised by the platform's own Request so the tests send exactly what fetch would.
 */
export async function formBody(
  fields: Record<string, string | number>,
  file?: { name: string; type: string; data: Buffer },
  fileField = 'file',
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (file) form.append(fileField, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}
