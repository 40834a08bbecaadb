// Completion, hover and diagnostics of query cells over a table of layouts: every option on every line
// position, in each form the notebook accepts (one-line URL form; multi-line with ` = `, `=`, bare names or
// leading `&`; continuation lines; comment and blank lines between options and inside a wrapped value).
import * as assert from 'node:assert/strict';
import { completeQuery } from '../../../src/waterData/core/completion';
import { hoverQuery } from '../../../src/waterData/core/hover';
import { analyzeQuery } from '../../../src/waterData/core/validate';

type Opt = '$select' | '$filter' | '$top' | '$count' | '$skiptoken';
const OPTIONS: Opt[] = ['$select', '$filter', '$top', '$count', '$skiptoken'];

interface OptionCase {
  /** The value: its first line, then continuation lines (written indented in the multi-line form). */
  ok: string[];
  /** The same with one mistake; `wrong` is the text the diagnostic underlines, on the last line. */
  bad: string[];
  wrong: string;
  message: RegExp;
  /** Labels completion offers at the end of the value's last line: exactly these, or at least `includes`. */
  atEnd: { exactly?: string[]; includes?: string[]; excludes?: string[] };
  /** The word of the last line a hover is asked on, and what the hover says. */
  hoverWord: string;
  hover: RegExp;
  /** What completion offers on a new indented line after the option: its continuation, or new options. */
  indented: { exactly?: string[]; includes?: string[]; excludes?: string[] };
}

const NEW_OPTIONS = ['$select', '$filter', '$top', '$count', '$skiptoken'];

const CASES: Record<Opt, OptionCase> = {
  $select: {
    ok: ['Id, LocationId,', 'CharacteristicName'],
    bad: ['Id, LocationId,', 'Nope'],
    wrong: 'Nope',
    message: /Observations has no field "Nope"/,
    atEnd: { includes: ['CharacteristicName', 'ResultValue'], excludes: ['Id', 'LocationId', '$select'] },
    hoverWord: 'CharacteristicName',
    hover: /CharacteristicName[\s\S]*field of Observations/,
    indented: { includes: ['ResultValue'], excludes: ['Id', 'CharacteristicName', '$select'] },
  },
  $filter: {
    ok: ["CharacteristicName eq 'pH'", "and RegionId eq 'hub.atlantic'"],
    bad: ["CharacteristicName eq 'pH'", "and Colour eq 'hub.atlantic'"],
    wrong: 'Colour',
    message: /Observations cannot be filtered by "Colour"/,
    atEnd: { exactly: ['and', 'or'] },
    hoverWord: 'RegionId',
    hover: /RegionId[\s\S]*\$filter/,
    indented: { exactly: ['and', 'or'] },
  },
  $top: {
    ok: ['500'],
    bad: ['50000'],
    wrong: '50000',
    message: /\$top is at most 10000/,
    atEnd: { exactly: ['10', '100', '1000', '10000'] },
    hoverWord: '500',
    hover: /\$top/,
    indented: { exactly: NEW_OPTIONS },
  },
  $count: {
    ok: ['false'],
    bad: ['maybe'],
    wrong: 'maybe',
    message: /\$count is true or false/,
    atEnd: { exactly: ['true', 'false'] },
    hoverWord: 'false',
    hover: /\$count/,
    indented: { exactly: NEW_OPTIONS },
  },
  $skiptoken: {
    ok: ['Id:5'],
    bad: ['5'],
    wrong: '5',
    message: /\$skiptoken has the form Id:<id>/,
    atEnd: { exactly: [] },
    hoverWord: 'Id:5',
    hover: /\$skiptoken/,
    indented: { exactly: NEW_OPTIONS },
  },
};

/** How a layout writes the cell; `style` is what completing a new option inserts after its name. */
interface Layout {
  name: string;
  url?: boolean;
  head: string[];
  option(name: Opt, first: string): string;
  /** Lines written between an option's first line and its continuation. */
  inside?: string[];
  /** Lines written before each option. */
  before?: string[];
  style: string;
}

const LAYOUTS: Layout[] = [
  { name: 'multi-line, `$name = value`', head: ['/Observations'], option: (n, v) => `${n} = ${v}`, style: ' = ' },
  { name: 'multi-line, `$name=value`', head: ['/Observations'], option: (n, v) => `${n}=${v}`, style: '=' },
  {
    name: 'multi-line, bare names',
    head: ['/Observations'],
    option: (n, v) => `${n.slice(1)} = ${v}`,
    style: ' = ',
  },
  { name: 'multi-line, `&$name=value` lines', head: ['/Observations'], option: (n, v) => `&${n}=${v}`, style: '=' },
  {
    name: 'comment and blank line before each option',
    head: ['/Observations'],
    before: ['# why this option', ''],
    option: (n, v) => `${n} = ${v}`,
    style: ' = ',
  },
  {
    name: 'comment and blank line inside a wrapped value, a comment and a GET URL first',
    head: ['# pH on the Atlantic coast', '', 'GET https://api.datastream.org/v1/odata/v4/Observations'],
    inside: ['  # wrapped', ''],
    option: (n, v) => `${n} = ${v}`,
    style: ' = ',
  },
  {
    name: 'the request line holds the first option, the others follow on their own lines',
    head: ['/Observations?$count=false'],
    option: (n, v) => `${n} = ${v}`,
    style: ' = ',
  },
  { name: 'one-line URL form', url: true, head: ['/Observations'], option: (n, v) => `${n}=${v}`, style: '=' },
];

interface Built {
  text: string;
  /** Per option: the offset of its name's first character and the end offset of each of its value's lines. */
  at: Record<string, { name: number; ends: number[]; lastLine: number }>;
}

/** The cell for `order` in `layout`; `bad` writes that option's mistake; `extra` lines follow option `after`. */
function build(layout: Layout, order: Opt[], bad?: Opt, extra?: { after: Opt; lines: string[] }): Built {
  const at: Built['at'] = {};
  const values = (o: Opt) => (o === bad ? CASES[o].bad : CASES[o].ok);
  // The request line holds $count in that layout; it is not one of the options laid out below.
  const laid = layout.head[0].includes('?') ? order.filter((o) => o !== '$count') : order;
  if (layout.url) {
    let text = layout.head[0] + '?';
    laid.forEach((o, i) => {
      if (i > 0) text += '&';
      at[o] = { name: text.length, ends: [], lastLine: 0 };
      text += layout.option(o, values(o).join(' '));
      at[o].ends.push(text.length);
      if (extra?.after === o) text += extra.lines.join('');
    });
    return { text, at };
  }
  const lines = [...layout.head];
  let length = lines.join('\n').length;
  const push = (line: string) => {
    lines.push(line);
    length += 1 + line.length;
  };
  for (const o of laid) {
    for (const l of layout.before ?? []) push(l);
    const [first, ...more] = values(o);
    const line = layout.option(o, first);
    at[o] = { name: length + 1 + line.indexOf(o.slice(1)) - (line.includes(o) ? 1 : 0), ends: [], lastLine: 0 };
    push(line);
    at[o].ends.push(length);
    for (const m of more) {
      for (const l of layout.inside ?? []) push(l);
      push(`    ${m}`);
      at[o].ends.push(length);
    }
    at[o].lastLine = lines.length - 1;
    if (extra?.after === o) for (const l of extra.lines) push(l);
  }
  return { text: lines.join('\n'), at };
}

function rotations(): Opt[][] {
  return OPTIONS.map((_, k) => [...OPTIONS.slice(k), ...OPTIONS.slice(0, k)]);
}

const labelsAt = (text: string, offset: number) => completeQuery(text, offset).map((i) => i.label);

function expectLabels(labels: string[], want: OptionCase['atEnd'], where: string): void {
  if (want.exactly) assert.deepEqual(labels, want.exactly, where);
  for (const l of want.includes ?? []) assert.ok(labels.includes(l), `${where}: ${l} missing from ${labels.join(' ')}`);
  for (const l of want.excludes ?? []) assert.ok(!labels.includes(l), `${where}: ${l} offered`);
}

/** Each option in each rotation, with the place it holds in the cell ("first", "3rd of 5"). */
function* everyPlace(layout: Layout): Generator<{ order: Opt[]; o: Opt; where: string }> {
  for (const order of rotations()) {
    const laid = layout.head[0].includes('?') ? order.filter((x) => x !== '$count') : order;
    for (const [i, o] of laid.entries()) yield { order, o, where: `${layout.name}: ${o} at place ${i + 1}` };
  }
}

describe('waterData query cells: every option on every line of every layout', () => {
  for (const layout of LAYOUTS) {
    describe(layout.name, () => {
      it('the cell as laid out has no diagnostics', () => {
        for (const order of rotations()) {
          const { text } = build(layout, order);
          assert.deepEqual(analyzeQuery(text).diagnostics, [], text);
        }
      });

      it('completion at the end of each value line offers what fits that option', () => {
        for (const { order, o, where } of everyPlace(layout)) {
          const { text, at } = build(layout, order);
          const ends = at[o].ends;
          expectLabels(labelsAt(text, ends[ends.length - 1]), CASES[o].atEnd, `${where}\n${text}`);
        }
      });

      it('completion on the request line offers the entity sets', () => {
        const { text } = build(layout, OPTIONS);
        const offset = text.indexOf('Observations') + 3;
        assert.deepEqual(labelsAt(text, offset), ['/Metadata', '/Locations', '/Observations', '/Records'], text);
      });

      it('a new option typed after each option is completed as a new option, in the form of the cell', () => {
        for (const { order, o, where } of everyPlace(layout)) {
          const typed = layout.url ? '&$se' : '$se';
          const { text, at } = build(layout, order, undefined, { after: o, lines: [typed] });
          const offset = layout.url
            ? at[o].ends[at[o].ends.length - 1] + typed.length
            : /\n\$se(\n|$)/.exec(text)!.index + 4;
          const items = completeQuery(text, offset);
          assert.deepEqual(
            items.map((i) => i.label),
            NEW_OPTIONS,
            `${where}\n${text}`,
          );
          const select = items[0];
          assert.equal(text.slice(select.replaceStart, select.replaceEnd), '$se', where);
          assert.equal(select.insertText, `$select${layout.style}`, where);
          // And the cell's diagnostics blame the unfinished line, not the option above it.
          const found = analyzeQuery(text).diagnostics;
          assert.equal(found.length, 1, `${where}: ${JSON.stringify(found)}`);
          assert.equal(text.slice(found[0].start, found[0].end), '$se', where);
        }
      });

      if (!layout.url)
        it('a new indented line after each option continues it where the option wraps, else starts one', () => {
          for (const { order, o, where } of everyPlace(layout)) {
            const { text, at } = build(layout, order, undefined, { after: o, lines: ['    '] });
            const line = text.split('\n').slice(0, at[o].lastLine + 2);
            const offset = line.join('\n').length;
            expectLabels(labelsAt(text, offset), CASES[o].indented, `${where}\n${text}`);
          }
        });

      it('hover names the option on its name and explains the value under the pointer', () => {
        for (const { order, o, where } of everyPlace(layout)) {
          const { text, at } = build(layout, order);
          const onName = hoverQuery(text, at[o].name + 2);
          assert.ok(onName, `${where}: no hover on the name`);
          assert.ok(onName.markdown.includes(`**${o}**`), `${where}: ${onName.markdown}`);
          const end = at[o].ends[at[o].ends.length - 1];
          const word = CASES[o].hoverWord;
          const start = text.lastIndexOf(word, end);
          const onValue = hoverQuery(text, start + 1);
          assert.ok(onValue, `${where}: no hover on ${word}`);
          assert.match(onValue.markdown, CASES[o].hover, where);
          assert.equal(text.slice(onValue.start, onValue.end), word, where);
        }
      });

      it('a mistake in each option is reported on its own line, under the mistaken text', () => {
        for (const { order, o, where } of everyPlace(layout)) {
          const { text, at } = build(layout, order, o);
          const found = analyzeQuery(text).diagnostics;
          assert.equal(found.length, 1, `${where}: ${JSON.stringify(found)}\n${text}`);
          assert.match(found[0].message, CASES[o].message, where);
          assert.equal(text.slice(found[0].start, found[0].end), CASES[o].wrong, where);
          const end = at[o].ends[at[o].ends.length - 1];
          assert.ok(found[0].end <= end && found[0].start >= text.lastIndexOf('\n', end - 1), where);
        }
      });
    });
  }

  it('comment lines get no completion and no hover; blank lines before the request line get entity sets', () => {
    const text = "# pH |here\n\n/Observations\n# $filter = |no\n$filter = CharacteristicName eq 'pH'";
    for (const marker of ['# pH |', '# $filter = |']) {
      const offset = text.indexOf(marker) + marker.length - 1;
      const clean = text.replace(/\|/g, '');
      const at = offset - (text.slice(0, offset).match(/\|/g) ?? []).length;
      assert.deepEqual(labelsAt(clean, at), [], marker);
      assert.equal(hoverQuery(clean, at), undefined, marker);
    }
    assert.deepEqual(labelsAt('\n\n/Observations', 1), ['/Metadata', '/Locations', '/Observations', '/Records']);
  });
});
