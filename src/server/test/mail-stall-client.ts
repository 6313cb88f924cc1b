// The client side of mail-stall-bench.ts, in a process of its own so that its work (composing and
// sending 10 MB, timing GETs) takes nothing from the server's event loop, which is what is measured.
// It GETs a list every 20 ms, timed from when each GET was due (a GET the server could not take
// in time counts its wait), before and while it sends one message file by SMTP.
// Usage: node mail-stall-client.ts SMTP_PORT FILE FROM TO URL KEY; prints the measures as JSON.
import fs from 'node:fs';
import nodemailer from 'nodemailer';

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

const idle = await timedGets(new Promise((resolve) => setTimeout(resolve, 600)));
const client = nodemailer.createTransport({
  host: '127.0.0.1',
  port: Number(smtpPort),
  ignoreTLS: true,
});
const started = performance.now();
const sent = client
  .sendMail({ envelope: { from, to }, raw: fs.readFileSync(file) })
  .then(() => ({ seconds: (performance.now() - started) / 1000 }))
  .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
const during = await timedGets(sent);
client.close();
console.log(JSON.stringify({ idle, during, ...(await sent) }));
