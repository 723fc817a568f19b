// An S3-protocol server for the media tests (s3rver, files in a temporary directory), in its own
// process so that what it holds never counts in the server's memory being measured.
// Usage: node s3rver-process.mjs <directory> <bucket>; prints one JSON line {port} once listening,
// and stops on SIGTERM or when its parent goes.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.stdin.on('end', stop);
process.stdin.resume();
