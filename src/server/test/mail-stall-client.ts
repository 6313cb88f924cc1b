// The client side of mail-stall-bench.ts, in a process of its own so that its work takes nothing
// from the server's event loop, which is what is measured. The message goes out as the file's
// bytes on a socket (smtp-raw.ts): a client that encodes 10 MB in JavaScript (nodemailer escapes
// dots line by line) would hold up its own GETs and charge the server with it.
// It GETs a list every 20 ms, timed from when each GET was due (a GET the server could not take
// in time counts its wait), while it sends one message file by SMTP, and then as long again with
// nothing sent: on a loaded machine that window's worst GET is what the load alone costs.
// Usage: node mail-stall-client.ts SMTP_PORT FILE FROM TO URL KEY; prints the measures as JSON.
import fs from 'node:fs';
import { SmtpRawClient } from './smtp-raw.ts';

const [smtpPort, file, from, to, url, key] = process.argv.slice(2);
if (!smtpPort || !file || !from || !to || !url || !key)
  throw new Error('usage: mail-stall-client.ts SMTP_PORT FILE FROM TO URL KEY');
const EVERY_MS = 20;

/** GETs every EVERY_MS until `until` settles; each one's milliseconds from when it was due. */
async function timedGets(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let due = performance.now();
  while (!done) {
    const answer = await fetch(url ?? '', { headers: { authorization: `Bearer ${key}` } });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`GET answered ${answer.status}`);
    latencies.push(performance.now() - due);
    due = Math.max(due + EVERY_MS, performance.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  return latencies;
}

await timedGets(new Promise((resolve) => setTimeout(resolve, 300)));
const data = fs.readFileSync(file);
const { client } = await SmtpRawClient.connect(Number(smtpPort));
const started = performance.now();
const sent = client
  .send({ from, to: [to], data })
  .then((reply) =>
    reply.code === 250
      ? { seconds: (performance.now() - started) / 1000 }
      : { error: `${reply.code} ${reply.text}` },
  );
const during = await timedGets(sent);
await client.quit();
const took = performance.now() - started;
const idle = await timedGets(new Promise((resolve) => setTimeout(resolve, took)));
console.log(JSON.stringify({ idle, during, ...(await sent) }));
