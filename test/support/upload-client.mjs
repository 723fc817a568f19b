// Sends multipart uploads to a server as an attacker's client would: over raw sockets, HTTP/1.1 with
// keep-alive, writing as fast as the server takes the bytes and going on after an answer comes, so
// only a server that stops reading ends the stream early. In its own process, so that its work never
// weighs on the event loop being measured (test/server/upload-limits.test.ts).
// Usage: node upload-client.mjs '<json: {port, uploads: [{path, headers, fields, head, fileBytes}]}>'
// Prints one JSON line: for each upload {status, body, written, answeredMs}.
import net from 'node:net';

const BOUNDARY = '----xpoint-upload-test';
/** One chunk, sent again and again: the client holds no more than this. */
const CHUNK = Buffer.alloc(256 * 1024, 0x41);

function sendUpload(port, { path, headers = {}, fields, head, fileBytes }) {
  const fieldParts = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const form = Buffer.concat([
    Buffer.from(
      `${fieldParts}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\n` +
        'Content-Type: video/mp4\r\n\r\n',
    ),
    Buffer.from(head, 'latin1'),
  ]);
  const closing = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const bodyBytes = form.length + (fileBytes - head.length) + closing.length;
  const headerLines = Object.entries({
    host: `127.0.0.1:${port}`,
    ...headers,
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    'content-length': String(bodyBytes),
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  const opening = Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${headerLines.join('')}\r\n`), form]);
  const total = opening.length + (fileBytes - head.length) + closing.length;
  const started = performance.now();
  return new Promise((resolve) => {
    const sent = { status: null, body: '', written: 0, answeredMs: null };
    let received = '';
    let done = false;
    let offset = 0;
    const socket = net.connect(port, '127.0.0.1');
    const finish = () => {
      if (done) return;
      done = true;
      sent.written = socket.bytesWritten;
      const split = received.indexOf('\r\n\r\n');
      if (split >= 0) sent.body = received.slice(split + 4);
      socket.destroy();
      resolve(sent);
    };
    socket.setEncoding('latin1');
    socket.on('data', (text) => {
      if (sent.status === null) {
        sent.answeredMs = performance.now() - started;
        sent.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      }
      received += text;
      check();
    });
    let allWritten = false;
    // a whole answer to a whole body, on a connection the server keeps: done (JSON answers carry
    // their length). An answer before the body's end does not stop the sending: a server that goes
    // on reading gets it all
    const check = () => {
      const split = received.indexOf('\r\n\r\n');
      if (split < 0 || !allWritten) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.slice(0, split));
      if (length && Buffer.byteLength(received.slice(split + 4), 'latin1') >= Number(length[1])) finish();
    };
    // the server ended the connection (after its answer) or dropped it: the stream is over
    socket.on('end', finish);
    socket.on('error', finish);
    socket.on('close', finish);
    const pump = () => {
      while (!socket.destroyed && offset < total) {
        const chunk =
          offset === 0
            ? opening
            : offset >= total - closing.length
              ? closing
              : CHUNK.subarray(0, Math.min(CHUNK.length, total - closing.length - offset));
        offset += chunk.length;
        const last = offset >= total;
        const flowing = socket.write(chunk, last ? () => ((allWritten = true), check()) : undefined);
        if (!flowing) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', pump);
  });
}

const { port, uploads } = JSON.parse(process.argv[2]);
const results = await Promise.all(uploads.map((upload) => sendUpload(port, upload)));
process.stdout.write(`${JSON.stringify(results)}\n`);
