import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import sharp from 'sharp';
import type { Twin } from '../infra/local/twin';
import type { CreationProgress, UploadTicket, Uploaded } from '../shared/schemas/items';
import { startDynamoCounter } from './dynamo-counter';
import { logInWithPins } from './login';
import { ms, percentile, table } from './stats';
import { json } from './http';

/**
 * Creating a 200-copy item on the twin: wall time of `POST /api/users/{id}/token/create` (the
 * reservation, 4 batches of 50 copies + 50 provenance records, the finalising transaction) and
 * the DynamoDB requests and write capacity units it consumes, counted by the proxy in front of
 * DynamoDB Local (which reports ConsumedCapacity as DynamoDB does: 2 units per KB written in a
 * transaction). Each run creates a new item from two freshly uploaded images.
 */
const COPIES = 200;

export async function benchMint(twin: Twin, runs: number) {
  const counter = await startDynamoCounter(twin.urls.dynamodb);
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  const api = twin.urls.http;
  try {
    const stamp = `mint${Date.now().toString(36)}`;
    const user = {
      user_option: 'individual',
      nick: stamp,
      email: `${stamp}@example.com`,
      phone: `+4478${String(Date.now()).slice(-8)}`,
      name: 'Bench',
      surname: 'Minter',
      terms: true,
    };
    const registered = await json<{ id: string }>(
      await fetch(`${api}/api/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user }),
      }),
    );
    const { accessToken } = await logInWithPins(twin, cognito, twin.cognito.clientId, user);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` };
    const base = `${api}/api/users/${registered.id}`;
    const png = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#6c5ce7' },
    })
      .png()
      .toBuffer();

    const upload = async (): Promise<string> => {
      const ticket = await json<UploadTicket>(
        await fetch(`${base}/store-token-images`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'image', content_type: 'image/png', size: png.length }),
        }),
      );
      const form = new FormData();
      for (const [field, value] of Object.entries(ticket.post.fields)) form.append(field, value);
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'image.png');
      const stored = await fetch(ticket.post.url, { method: 'POST', body: form });
      if (!stored.ok) throw new Error(`upload answered ${stored.status}`);
      await json<Uploaded>(
        await fetch(`${base}/store-token-images/confirm`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ upload_id: ticket.upload_id }),
        }),
      );
      return ticket.upload_id;
    };

    // The handlers run in this process: new clients pick the counting endpoint up.
    process.env.DYNAMODB_ENDPOINT = counter.url;
    const times: number[] = [];
    const requests: number[] = [];
    const units: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const images = [await upload(), await upload()];
      const contract = {
        product_type: 'physical',
        title: `Bench edition ${run + 1}`,
        description: 'A 200-copy physical edition for the benchmark.',
        copies: COPIES,
        symbol: `bench-${run + 1}`,
        images,
        shipping: { mode: 'delivery', countries: ['ES', 'FR', 'DE'] },
        legal_terms: 'None',
        transferable: true,
        contact_email: user.email,
        issuer: {
          legal_form: 'Sole trader',
          organisation: 'Bench Editions',
          country: 'ES',
          email: user.email,
          governing_law: 'Spanish law',
          jurisdiction: 'Madrid',
        },
      };
      counter.reset();
      const started = performance.now();
      const progress = await json<CreationProgress>(
        await fetch(`${base}/token/create`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': `${stamp}-${run}` },
          body: JSON.stringify({ contract }),
        }),
      );
      times.push(performance.now() - started);
      if (progress.status !== 'done' || progress.written !== COPIES) {
        throw new Error(`creation ended ${JSON.stringify(progress)}`);
      }
      requests.push(counter.total());
      units.push(counter.writeUnits());
    }

    console.log(
      `\n5. Creating a ${COPIES}-copy item on the twin (${runs} runs, two images each)\n`,
    );
    console.log(
      table(
        ['POST token/create', 'p50', 'max'],
        [['wall time', ms(percentile(times, 50)), ms(Math.max(...times))]],
      ),
    );
    console.log('');
    console.log(
      table(
        ['per creation', 'median'],
        [
          ['DynamoDB requests', percentile(requests, 50)],
          ['write capacity units', percentile(units, 50)],
        ],
      ),
    );
    return {
      createP50Ms: percentile(times, 50),
      dynamoRequests: percentile(requests, 50),
      writeUnits: percentile(units, 50),
    };
  } finally {
    process.env.DYNAMODB_ENDPOINT = twin.urls.dynamodb;
    cognito.destroy();
    await counter.stop();
  }
}
