// The CLI's flag parsing (node:util parseArgs underneath): what the subcommands rely on, and the usage errors
// that main.ts turns into exit code 2.
import * as assert from 'node:assert/strict';
import { parseArgs, stringFlag, UsageError } from '../../../src/cli/args';

const spec = { values: ['port', 'prompt'], booleans: ['json'] };

describe('cli args', () => {
  it('reads --name value, --name=value, boolean flags and positionals in any order', () => {
    const p = parseArgs(['a.json', '--port', '8080', '--json', '--prompt=hi there', 'b.json'], spec);
    assert.equal(stringFlag(p, 'port'), '8080');
    assert.equal(stringFlag(p, 'prompt'), 'hi there');
    assert.equal(p.flags.get('json'), true);
    assert.equal(stringFlag(p, 'json'), undefined);
    assert.deepEqual(p.positionals, ['a.json', 'b.json']);
  });

  it('leaves absent flags out, and the last of a repeated flag wins', () => {
    const p = parseArgs(['--port', '1', '--port', '2'], spec);
    assert.equal(stringFlag(p, 'port'), '2');
    assert.equal(p.flags.has('json'), false);
    assert.equal(p.flags.has('prompt'), false);
  });

  it('takes everything after -- and a lone - as positionals', () => {
    const p = parseArgs(['-', '--', '--json', '--port'], spec);
    assert.deepEqual(p.positionals, ['-', '--json', '--port']);
    assert.equal(p.flags.size, 0);
  });

  it('accepts a value starting with a dash only in the --name=value form', () => {
    assert.equal(stringFlag(parseArgs(['--prompt=-5'], spec), 'prompt'), '-5');
    assert.throws(
      () => parseArgs(['--prompt', '-5'], spec),
      (e: Error) => e instanceof UsageError && /--prompt needs a value/.test(e.message),
    );
  });

  it('turns every kind of misuse into a short UsageError', () => {
    const cases: [string[], RegExp][] = [
      [['--bogus'], /^unknown option --bogus$/],
      [['-x'], /^unknown option -x$/],
      [['--port'], /^--port needs a value$/],
      [['--json=yes'], /^--json takes no value$/],
    ];
    for (const [args, message] of cases) {
      assert.throws(
        () => parseArgs(args, spec),
        (e: Error) => e instanceof UsageError && message.test(e.message),
        args.join(' '),
      );
    }
  });
});

describe('api-workbench <command> --help', () => {
  it('every command the CLI lists prints its usage on stdout and exits 0', async () => {
    const { runCli } = await import('../../../src/cli/main');
    const sink = () => {
      let text = '';
      return {
        stream: { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream,
        get text() {
          return text;
        },
      };
    };
    const listed = sink();
    assert.equal(
      await runCli(['--help'], {
        stdout: listed.stream,
        stderr: sink().stream,
        env: {},
        interrupted: new Promise(() => undefined),
      }),
      0,
    );
    const names = [...listed.text.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]);
    assert.ok(names.length >= 8, `commands listed: ${names.join(', ')}`);
    for (const name of names) {
      const out = sink();
      const err = sink();
      const code = await runCli([name, '--help'], {
        stdout: out.stream,
        stderr: err.stream,
        env: {},
        interrupted: new Promise(() => undefined),
      });
      assert.equal(code, 0, `${name} --help exited ${code}: ${err.text}`);
      assert.match(out.text, new RegExp(`^usage: api-workbench ${name}\\b`), `${name} --help printed: ${out.text}`);
      assert.equal(err.text, '');
    }
  });
});
