import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import WebSocket from 'ws';
import type { Twin } from '../infra/local/twin';
import { newId, newOfferingId } from '../functions/core/ids';
import { putFollowEdges } from '../functions/follows/testing/followers';
import { notify, notifyDeps, startFollowerFanOut } from '../functions/notifications/index';
import { startDynamoCounter } from './dynamo-counter';
import { logInWithPins } from './login';
import { ms, percentile, table } from './stats';
import { json } from './http';

/**
 * Notifications on the twin:
 * - notify → bell: a signed-in user with an open WebSocket to the twin's live channel; the time
 *   from calling notify() (as a feature or a workflow task calls it) to the `notification.created`
 *   message arriving on the socket (the transaction, the counters read, the connection query and
 *   the post through the WebSocket gateway's @connections endpoint), sequential, p50/p95;
 * - fan-out of a new offering to a seller's followers (follow edges written directly): the start
 *   call's time, the time from the start to the execution's end (its last page's last
 *   notification), and the DynamoDB requests and write units per follower, counted by the proxy
 *   in front of DynamoDB Local (bench/dynamo-counter.ts: a transaction's item costs 2 units per KB).
 */

export async function benchNotifyToBell(twin: Twin, runs: number) {
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  const stamp = `bell${Date.now().toString(36)}`;
  const user = {
    user_option: 'individual',
    nick: stamp,
    email: `${stamp}@example.com`,
    phone: `+4479${String(Date.now()).slice(-8)}`,
    name: 'Bench',
    surname: 'Follower',
    terms: true,
  };
  const { id } = await json<{ id: string }>(
    await fetch(`${twin.urls.http}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user }),
    }),
  );
  const { accessToken } = await logInWithPins(twin, cognito, twin.cognito.clientId, user);
  cognito.destroy();
  const socket = new WebSocket(
    `${twin.urls.ws}?userid=${id}&token=${encodeURIComponent(accessToken)}`,
  );
  let waiting: ((message: Record<string, unknown>) => void) | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (message.type === 'notification.created') waiting?.(message);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  try {
    const deps = notifyDeps();
    const times: number[] = [];
    for (let run = 0; run < runs + 10; run += 1) {
      const heard = new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notification.created in 5 s')), 5000);
        waiting = (message) => {
          clearTimeout(timer);
          resolve(message);
        };
      });
      const started = performance.now();
      const [result, message] = await Promise.all([
        notify(
          deps,
          {
            to: id,
            activity: 'market_newoffering',
            eventKey: `${stamp}:${run}`,
            sourceid: 'bench-seller',
            payload: { itemName: 'Bench print', itemmarket: `oF${run}`, sourcenick: 'bench' },
          },
          new Date(),
        ),
        heard.then((received) => [received, performance.now() - started] as const),
      ]);
      if (message[0].notificationId !== result.id) throw new Error('another notification heard');
      // The first ten warm the handlers and connections up.
      if (run >= 10) times.push(message[1]);
    }
    console.log(`\n10. notify() → notification.created on an open socket (${runs} sequential)\n`);
    console.log(
      table(
        ['path', 'p50', 'p95'],
        [
          [
            'notify → bell (WebSocket gateway)',
            ms(percentile(times, 50)),
            ms(percentile(times, 95)),
          ],
        ],
      ),
    );
    return { runs, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
  } finally {
    socket.close();
  }
}

export async function benchFanOut(twin: Twin, followers: number) {
  const seller = newId();
  const ids = Array.from({ length: followers }, () => newId());
  await putFollowEdges(seller, ids);
  const counter = await startDynamoCounter(twin.urls.dynamodb);
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const sfn = new SFNClient({ region: 'us-east-1', endpoint: twin.urls.sfn });
  try {
    // The workflow's task runs in this process: new clients pick the counting endpoint up.
    process.env.DYNAMODB_ENDPOINT = counter.url;
    counter.reset();
    const offeringId = newOfferingId();
    const started = performance.now();
    const start = await startFollowerFanOut({
      sellerId: seller,
      offeringId,
      publishedAt: new Date().toISOString(),
      payload: { itemName: 'Bench print', itemmarket: offeringId, offeringId, sourcenick: 'bench' },
    });
    const startMs = performance.now() - started;
    let output: { notified?: number; created?: number; pages?: number } = {};
    for (;;) {
      const described = await sfn.send(
        new DescribeExecutionCommand({ executionArn: start.executionArn }),
      );
      if (described.status === 'SUCCEEDED') {
        output = JSON.parse(described.output ?? '{}') as typeof output;
        break;
      }
      if (described.status !== 'RUNNING') {
        throw new Error(`fan-out ${described.status}: ${described.error} ${described.cause}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const lastMs = performance.now() - started;
    if (output.created !== followers) {
      throw new Error(`fan-out created ${output.created} of ${followers}`);
    }
    const counts = counter.counts();
    const perFollower = (value: number) => (value / followers).toFixed(3);
    const writeUnits = counter.writeUnits();
    console.log(
      `\n11. Fan-out of a new offering to ${followers.toLocaleString('en')} followers ` +
        `(workflow on the twin, pages of 1,000, 25 notify() at a time)\n`,
    );
    console.log(
      table(
        ['figure', 'value'],
        [
          ['start call (one StartExecution)', ms(startMs)],
          ['start → last notification', `${(lastMs / 1000).toFixed(1)} s`],
          ['notifications per second', ((followers * 1000) / lastMs).toFixed(0)],
          ['pages', String(output.pages)],
          ['DynamoDB write units per follower', perFollower(writeUnits)],
          ...Object.entries(counts)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([operation, count]) => [`${operation} per follower`, perFollower(count)]),
        ],
      ),
    );
    return {
      followers,
      startMs,
      lastNotificationMs: lastMs,
      pages: output.pages,
      writeUnitsPerFollower: writeUnits / followers,
      requestsPerFollower: Object.fromEntries(
        Object.entries(counts).map(([operation, count]) => [operation, count / followers]),
      ),
    };
  } finally {
    if (endpoint === undefined) Reflect.deleteProperty(process.env, 'DYNAMODB_ENDPOINT');
    else process.env.DYNAMODB_ENDPOINT = endpoint;
    sfn.destroy();
    await counter.stop();
  }
}
