// kill -9 (and SIGHUP) in the middle of writes: ten clients write to a `sandbox --data DIR` process as fast as it
// answers — content, metadata, rename, move, trash, delete, multipart and resumable uploads (whole, and in 256 KiB
// chunks over several requests), each client on files of its own — and the process is killed at a random moment.
// After each restart every acknowledged write is there, unchanged; a write in flight at the kill may be there or
// not, whole; a chunked upload's session still holds every byte a 308 reported, and goes on to one file, never
// two. Cycles and seeds: FUZZ_ITERATIONS, the seed is printed.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../support/sandboxProcess';
import { Random } from './fuzz';

const FOLDER = 'application/vnd.google-apps.folder';
const CLIENTS = 10;
/** Acknowledged writes per cycle, at least (up to half as many again): 15 cycles make more than 5,000. */
const PER_CYCLE = 340;
const GRANULE = 256 * 1024;

/** A chunked resumable upload under way: what was sent, and what the server said it kept. */
interface Session {
  path: string;
  bytes: Buffer;
  title: string;
  parent: string;
  /** Bytes a 308 (or a status query) reported kept. */
  acked: number;
  /** Bytes sent so far, answered or not. */
  sent: number;
}

interface Expected {
  title: string;
  description: string;
  md5: string;
  parent: string;
  trashed: boolean;
}

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

class Client {
  /** Files this client made, with what the last acknowledged write left. */
  readonly files = new Map<string, Expected | 'deleted'>();
  /** The write in flight when the process died: its file may hold the state before or after it. */
  inFlight: { id?: string; after?: Expected | 'deleted' } | undefined;
  acknowledged = 0;
  folders: string[] = [];
  session: Session | undefined;
  /** Chunked uploads finished, and sessions found intact after a restart. */
  sessionsDone = 0;
  sessionsResumed = 0;

  constructor(
    readonly n: number,
    private readonly r: Random,
  ) {}

  async call(
    sb: SandboxProcess,
    method: string,
    p: string,
    body?: unknown,
    raw?: { bytes: Buffer; type: string; range?: boolean },
  ) {
    const headers: Record<string, string> = { authorization: `Bearer ${sb.token}` };
    let payload: string | Buffer | undefined;
    if (raw) {
      payload = raw.bytes;
      headers['content-type'] = raw.type;
      if (raw.range) headers['content-range'] = `bytes 0-${raw.bytes.length - 1}/${raw.bytes.length}`;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(sb.url + p, { method, headers, body: payload as BodyInit | undefined });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    };
  }

  async setUp(sb: SandboxProcess): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const r = await this.call(sb, 'POST', '/store/v2/files', {
        title: `client ${this.n} folder ${i}`,
        mimeType: FOLDER,
      });
      assert.equal(r.status, 200);
      this.folders.push(r.json.id as string);
    }
  }

  private live(): Array<[string, Expected]> {
    return [...this.files].filter((e): e is [string, Expected] => e[1] !== 'deleted');
  }

  /** One random write; resolves once acknowledged (the expected state recorded), rejects when the process is gone. */
  async step(sb: SandboxProcess): Promise<void> {
    const r = this.r;
    if (this.session) return this.nextChunk(sb, this.session);
    const live = this.live();
    const kinds = ['create', 'multipart', 'resumable', 'chunked', 'edit'];
    const kind = live.length < 3 || live.length < 25 ? r.pick(kinds) : 'edit';
    if (kind === 'chunked') return this.startSession(sb);
    if (kind !== 'edit' || !live.length) return this.create(sb, kind === 'edit' ? 'create' : kind);
    const [id, cur] = r.pick(live);
    const op = r.pick(['content', 'metadata', 'rename', 'move', 'trash', 'delete']);
    let after: Expected | 'deleted';
    let res;
    this.inFlight = { id };
    if (op === 'content') {
      const bytes = Buffer.from(`content ${r.next()}`.repeat(1 + r.int(50)));
      after = { ...cur, md5: md5(bytes) };
      this.inFlight.after = after;
      res = await this.call(sb, 'PUT', `/upload/store/v2/files/${id}?uploadType=media`, undefined, {
        bytes,
        type: 'text/plain',
      });
    } else if (op === 'metadata' || op === 'rename') {
      const patch = op === 'rename' ? { title: `renamed ${r.int(1e9)}` } : { description: `d ${r.int(1e9)}` };
      after = { ...cur, ...patch };
      this.inFlight.after = after;
      res = await this.call(sb, 'PATCH', `/store/v2/files/${id}`, patch);
    } else if (op === 'move') {
      const to = this.folders[cur.parent === this.folders[0] ? 1 : 0];
      after = { ...cur, parent: to };
      this.inFlight.after = after;
      res = await this.call(sb, 'PATCH', `/store/v2/files/${id}?addParents=${to}&removeParents=${cur.parent}`, {});
    } else if (op === 'trash') {
      after = { ...cur, trashed: !cur.trashed };
      this.inFlight.after = after;
      res = await this.call(sb, 'POST', `/store/v2/files/${id}/${cur.trashed ? 'untrash' : 'trash'}`);
    } else {
      after = 'deleted';
      this.inFlight.after = after;
      res = await this.call(sb, 'DELETE', `/store/v2/files/${id}`);
    }
    assert.ok(res.status < 300, `${op} answered ${res.status}`);
    this.files.set(id, after);
    this.inFlight = undefined;
    this.acknowledged++;
  }

  private async create(sb: SandboxProcess, how: string): Promise<void> {
    const r = this.r;
    const parent = r.pick(this.folders);
    const title = `file ${this.n}-${r.int(1e9)} ü`;
    const bytes = Buffer.from(`made ${r.next()}`.repeat(1 + r.int(20)));
    this.inFlight = {};
    let res;
    if (how === 'multipart') {
      const b = `b${r.int(1e9)}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${b}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ title, parents: [{ id: parent }] })}\r\n`,
        ),
        Buffer.from(`--${b}\r\ncontent-type: text/plain\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${b}--`),
      ]);
      res = await this.call(sb, 'POST', '/upload/store/v2/files?uploadType=multipart', undefined, {
        bytes: body,
        type: `multipart/related; boundary=${b}`,
      });
    } else if (how === 'resumable') {
      const session = await this.call(sb, 'POST', '/upload/store/v2/files?uploadType=resumable', {
        title,
        parents: [{ id: parent }],
      });
      assert.equal(session.status, 200);
      const loc = new URL(session.headers.get('location')!);
      res = await this.call(sb, 'PUT', loc.pathname + loc.search, undefined, {
        bytes,
        type: 'text/plain',
        range: true,
      });
    } else {
      res = await this.call(sb, 'POST', `/upload/store/v2/files?uploadType=media`, undefined, {
        bytes,
        type: 'text/plain',
      });
      assert.ok(res.status < 300, `create answered ${res.status}`);
      // A media upload names the file Untitled in the root: give it its place with a second acknowledged write.
      const id = res.json.id as string;
      const root = (res.json.parents as Array<{ id: string }>)[0].id;
      this.files.set(id, { title: 'Untitled', description: '', md5: md5(bytes), parent: root, trashed: false });
      this.acknowledged++;
      this.inFlight = { id, after: { title, description: '', md5: md5(bytes), parent, trashed: false } };
      res = await this.call(sb, 'PATCH', `/store/v2/files/${id}?addParents=${parent}&removeParents=${root}`, { title });
    }
    assert.ok(res.status < 300, `${how} answered ${res.status}`);
    this.files.set(res.json.id as string, { title, description: '', md5: md5(bytes), parent, trashed: false });
    this.inFlight = undefined;
    this.acknowledged++;
  }

  private async startSession(sb: SandboxProcess): Promise<void> {
    const title = `chunked ${this.n}-${this.r.int(1e9)}`;
    const parent = this.r.pick(this.folders);
    const bytes = Buffer.alloc(GRANULE * (1 + this.r.int(3)) + this.r.int(5000), this.n + 1);
    bytes.write(title);
    const res = await this.call(sb, 'POST', '/upload/store/v2/files?uploadType=resumable', {
      title,
      parents: [{ id: parent }],
    });
    assert.equal(res.status, 200, `a resumable session answered ${res.status}`);
    const loc = new URL(res.headers.get('location')!);
    this.session = { path: loc.pathname + loc.search, bytes, title, parent, acked: 0, sent: 0 };
    this.acknowledged++;
  }

  /** Sends the next 256 KiB (or the rest); a 308 says how much is kept, the last chunk's answer is the file. */
  private async nextChunk(sb: SandboxProcess, s: Session): Promise<void> {
    const end = Math.min(s.acked + GRANULE, s.bytes.length);
    s.sent = end;
    const res = await fetch(sb.url + s.path, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${sb.token}`,
        'content-range': `bytes ${s.acked}-${end - 1}/${s.bytes.length}`,
      },
      body: new Uint8Array(s.bytes.subarray(s.acked, end)),
    });
    await this.settle(s, res);
  }

  /** Takes a session's answer: 308 with the bytes kept, or the file once all are in. */
  private async settle(s: Session, res: Response): Promise<void> {
    const text = await res.text();
    if (res.status === 308) {
      const kept = /^bytes=0-(\d+)$/.exec(res.headers.get('range') ?? '');
      const acked = kept ? Number(kept[1]) + 1 : 0;
      assert.ok(acked >= s.acked, `session of ${s.title}: ${s.acked} bytes were reported kept, now ${acked}`);
      assert.ok(acked <= s.sent, `session of ${s.title}: ${acked} bytes kept of ${s.sent} sent`);
      s.acked = acked;
    } else {
      assert.ok(res.status < 300, `session of ${s.title} answered ${res.status}: ${text}`);
      const file = JSON.parse(text) as { id: string; md5Checksum: string };
      assert.equal(file.md5Checksum, md5(s.bytes), `session of ${s.title}: the file holds other bytes`);
      this.files.set(file.id, { title: s.title, description: '', md5: md5(s.bytes), parent: s.parent, trashed: false });
      this.session = undefined;
      this.sessionsDone++;
    }
    this.acknowledged++;
  }

  /** After a restart: a session under way is asked where it is (a status query), and must know every byte it said it kept. */
  private async resumeSession(sb: SandboxProcess, s: Session): Promise<void> {
    const res = await fetch(sb.url + s.path, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sb.token}`, 'content-range': `bytes */${s.bytes.length}` },
    });
    assert.ok(
      res.status !== 404,
      `session of ${s.title} is gone after the restart (${s.acked} bytes were reported kept)`,
    );
    this.acknowledged--;
    await this.settle(s, res);
    this.sessionsResumed++;
    const q = encodeURIComponent(`title = '${s.title}'`);
    const list = await this.call(sb, 'GET', `/store/v2/files?q=${q}&fields=items(id)`);
    assert.ok((list.json.items as unknown[]).length <= 1, `${s.title} was made twice`);
  }

  /** After a restart: every file as its last acknowledged write left it (or as the write in flight left it). */
  async check(sb: SandboxProcess): Promise<{ checked: number }> {
    if (this.session) await this.resumeSession(sb, this.session);
    let checked = 0;
    for (const [id, want] of this.files) {
      const res = await this.call(
        sb,
        'GET',
        `/store/v2/files/${id}?fields=title,description,md5Checksum,parents(id),labels(trashed)`,
      );
      const got: Expected | 'deleted' =
        res.status === 404
          ? 'deleted'
          : {
              title: res.json.title as string,
              description: (res.json.description as string | undefined) ?? '',
              md5: res.json.md5Checksum as string,
              parent: (res.json.parents as Array<{ id: string }>)[0]?.id,
              trashed: (res.json.labels as { trashed: boolean }).trashed,
            };
      const allowed = [want];
      if (this.inFlight?.id === id && this.inFlight.after) allowed.push(this.inFlight.after);
      assert.ok(
        allowed.some((a) => JSON.stringify(a) === JSON.stringify(got)),
        `client ${this.n}, file ${id}: acknowledged ${JSON.stringify(want)}, found ${JSON.stringify(got)}`,
      );
      // What the restart shows is now what the client knows.
      this.files.set(id, got);
      checked++;
    }
    this.inFlight = undefined;
    return { checked };
  }
}

function cyclesWanted(): number {
  const n = Number(process.env.FUZZ_ITERATIONS ?? '');
  return Number.isFinite(n) && n >= 15 ? Math.floor(n) : 15;
}

describe('storage sandbox: acknowledged writes survive kill -9 and SIGHUP', function () {
  this.timeout(600_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-crash-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('every acknowledged write of every kind is there after each restart', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 100_000);
    console.log(`      seed ${seed} (FUZZ_SEED=${seed} repeats it)`);
    const r = new Random(seed);
    const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i, new Random(seed * 31 + i)));
    let sb = await startSandboxProcess(dir);
    for (const c of clients) await c.setUp(sb);
    const cycles = cyclesWanted();
    let total = 0;
    let checkedTotal = 0;
    for (let cycle = 0; cycle < cycles + 3; cycle++) {
      const signal = cycle < cycles ? 'SIGKILL' : 'SIGHUP';
      // The kill comes after a random number of acknowledged writes (so every cycle writes enough, however fast
      // the machine), at whatever point each client's next write has reached.
      const target = clients.reduce((n, c) => n + c.acknowledged, 0) + PER_CYCLE + r.int(PER_CYCLE / 2);
      let stop = false;
      let reached: () => void = () => {};
      const enough = new Promise<void>((resolve) => (reached = resolve));
      const loops = clients.map(async (c) => {
        while (!stop) {
          await c.step(sb);
          if (clients.reduce((n, x) => n + x.acknowledged, 0) >= target) reached();
        }
      });
      const settled = Promise.allSettled(loops);
      const early = await Promise.race([enough.then(() => undefined), settled]);
      // A client stops before the kill only when a write was refused: that is a failure of its own.
      const refused = early?.find((x): x is PromiseRejectedResult => x.status === 'rejected');
      if (refused) throw refused.reason;
      const exited = new Promise((resolve) => sb.child.once('exit', resolve));
      sb.child.kill(signal);
      stop = true;
      await exited;
      await settled;
      sb = await startSandboxProcess(dir);
      for (const c of clients) checkedTotal += (await c.check(sb)).checked;
      total = clients.reduce((n, c) => n + c.acknowledged, 0);
    }
    sb.child.kill('SIGTERM');
    await new Promise((resolve) => sb.child.once('exit', resolve));
    const sessions = clients.reduce((n, c) => n + c.sessionsDone, 0);
    const resumed = clients.reduce((n, c) => n + c.sessionsResumed, 0);
    console.log(
      `      ${cycles} kill -9 and 3 SIGHUP cycles, ${total} acknowledged writes, ${checkedTotal} file checks, ` +
        `${sessions} chunked uploads (${resumed} sessions taken up again after a restart)`,
    );
    assert.ok(resumed > 0, 'no chunked upload was under way at a kill');
    assert.ok(total >= cycles * PER_CYCLE, `only ${total} acknowledged writes`);
    assert.ok(checkedTotal > 0);
  });
});
