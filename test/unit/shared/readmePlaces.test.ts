// Every command, view, menu place, setting and repository file the README names exists where it says.
// Contributions are read from package.json (the merge of src/**/contributes.json, kept in step by
// test/unit/platform/contributes.test.ts) with its %placeholders% resolved through package.nls.json.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..');
const CATEGORY = 'API Workbench';

interface Command {
  command: string;
  title: string;
  category?: string;
}
interface MenuItem {
  command?: string;
  when?: string;
  group?: string;
}
interface Contributes {
  commands: Command[];
  menus: Record<string, MenuItem[]>;
  views: Record<string, { id: string; name: string }[]>;
  viewsContainers: { activitybar: { id: string; title: string }[] };
  configuration: { properties: Record<string, unknown> }[];
  walkthroughs: { title: string }[];
}

const nls = JSON.parse(readFileSync(resolve(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
/** package.json's contributions with every `%key%` in its English form. */
const contributes = JSON.parse(
  readFileSync(resolve(root, 'package.json'), 'utf8').replace(/"%([^%"\s]+)%"/g, (m, k: string) =>
    nls[k] === undefined ? m : JSON.stringify(nls[k]),
  ),
) as { contributes: Contributes };
const { commands, menus, views, viewsContainers, configuration, walkthroughs } = contributes.contributes;

/** The README as prose: one line per paragraph, so a name broken over two lines reads as one. */
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const prose = readme.replace(/```[\s\S]*?```/g, '').replace(/([^\n])\n(?=[^\n#|-])/g, '$1 ');

/** Sections of the README (a heading and the text under it, up to the next heading). */
const sections = prose.split(/^(?=#{1,6} )/m);

const container = viewsContainers.activitybar.find((c) => c.title === CATEGORY);
const ourViews = container ? (views[container.id] ?? []) : [];
const viewNamed = (name: string) => ourViews.find((v) => v.name === name);

/** Menu entries of a command, with the menu each is in. */
const menuEntries = (id: string) =>
  Object.entries(menus).flatMap(([menu, items]) => items.filter((i) => i.command === id).map((i) => ({ menu, ...i })));
const inPalette = (id: string) => !menuEntries(id).some((e) => e.menu === 'commandPalette' && e.when === 'false');
const inMenu = (menu: string) => (id: string) => menuEntries(id).some((e) => e.menu === menu);

/** The places the README puts a command in, in its words: each phrase, and what must hold of the command. */
const PLACES: { phrase: RegExp; holds: (id: string) => boolean; name: string }[] = [
  { phrase: /\bcommand palette\b/i, holds: inPalette, name: 'Command Palette' },
  { phrase: /\beditor's context menu\b/i, holds: inMenu('editor/context'), name: 'editor/context menu' },
  {
    phrase: /\beditor tab's context menu\b/i,
    holds: inMenu('editor/title/context'),
    name: 'editor/title/context menu',
  },
  { phrase: /\beditor's title bar\b/i, holds: inMenu('editor/title'), name: 'editor/title menu' },
  { phrase: /\bexplorer(?:'s)? context menu\b/i, holds: inMenu('explorer/context'), name: 'explorer/context menu' },
];
/** Words that name a place in the workbench: a parenthesis holding one must match a phrase of PLACES. */
const PLACE_WORDS = /\b(menu|palette|title bar|toolbar|explorer)\b/i;

/** `**API Workbench: X**` mentions, each with the parenthesis that follows it (if any). */
const categoryMentions = [
  ...new Map(
    [...prose.matchAll(/\*\*API Workbench: ([^*]+)\*\*( output channel)?(?: \(([^)]*)\))?/g)].map((m) => [
      m[0],
      { title: m[1], channel: Boolean(m[2]), places: m[3] },
    ]),
  ).values(),
];

describe('README: every command, view and place it names exists there', () => {
  it('names commands as "API Workbench: <Title>"', () => {
    assert.ok(categoryMentions.length >= 5, `only ${categoryMentions.length} found: is the pattern still right?`);
  });

  for (const { title, channel, places } of categoryMentions) {
    if (channel) {
      it(`the output channel "API Workbench: ${title}" is created`, () => {
        const source = readFileSync(resolve(root, 'src/platform/requestLog/register.ts'), 'utf8');
        assert.ok(source.includes(`createOutputChannel('${CATEGORY}: ${title}'`), `no output channel named so`);
      });
      continue;
    }
    it(`"API Workbench: ${title}" is a command in the Command Palette${places ? ` (${places})` : ''}`, () => {
      const command = commands.find((c) => c.title === title && c.category === CATEGORY);
      assert.ok(command, `no command titled "${title}" in category "${CATEGORY}"`);
      assert.ok(inPalette(command.command), `${command.command} is hidden from the Command Palette`);
      if (!places) return;
      const named = PLACES.filter((p) => p.phrase.test(places));
      const rest = PLACES.reduce((text, p) => text.replace(new RegExp(p.phrase, 'gi'), ''), places);
      assert.doesNotMatch(rest, PLACE_WORDS, `"${places}" names a place this test does not know: add it to PLACES`);
      for (const p of named) assert.ok(p.holds(command.command), `${command.command} is not in the ${p.name}`);
    });
  }

  it('the activity bar container and every view it names ("**X** view", "activity bar → **X**")', () => {
    assert.ok(container, `no activity bar container titled "${CATEGORY}"`);
    assert.match(prose, new RegExp(`_${CATEGORY}_ activity bar`));
    const names = [...prose.matchAll(/\*\*([^*]+)\*\* view\b|activity bar → \*\*([^*]+)\*\*/g)].map(
      (m) => m[1] ?? m[2],
    );
    assert.ok(names.length >= 4, `only ${names.length} views named`);
    assert.deepEqual(
      names.filter((n) => !viewNamed(n)),
      [],
      `views the README names that ${CATEGORY} does not have`,
    );
    for (const [, name] of prose.matchAll(/\*\*([^*]+)\*\* view at the bottom/g))
      assert.equal(ourViews.at(-1)?.name, name, `${name} is not the last view of the side bar`);
  });

  it("every command named by its title alone in a view's section is in that view's menus (right-click, inline)", () => {
    let checked = 0;
    for (const section of sections) {
      const heading = /^#+ (.*)/.exec(section)?.[1] ?? '';
      const viewName = viewNamed(heading)?.name ?? /\*\*([^*]+)\*\* view\b/.exec(section)?.[1];
      const view = viewName ? viewNamed(viewName) : undefined;
      for (const sentence of section.split(/(?<=[.;:])\s/)) {
        const bold = [...sentence.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
        const named = bold
          .map((b) => commands.find((c) => c.title === b && c.category === CATEGORY))
          .filter((c): c is Command => c !== undefined);
        // In a view's section, bold text names a view, a command or "API Workbench: <Title>" (checked above).
        if (view)
          for (const b of bold)
            assert.ok(
              viewNamed(b) || b.startsWith(`${CATEGORY}: `) || named.some((c) => c.title === b),
              `"${b}" in the ${viewName} section is neither a view nor a command title`,
            );
        for (const c of named) {
          const entries = menuEntries(c.command).filter((e) => !view || e.when?.includes(`view == ${view.id}`));
          assert.ok(entries.length > 0 || (!view && inPalette(c.command)), `"${c.title}" is in no menu of ${viewName}`);
          if (/right-click/i.test(sentence))
            assert.ok(
              entries.some((e) => e.menu === 'view/item/context' && !e.group?.startsWith('inline')),
              `"${c.title}" is not in the context menu of ${viewName}'s rows`,
            );
          checked++;
        }
        if (/inline button/i.test(sentence))
          assert.ok(
            named.some((c) => menuEntries(c.command).some((e) => e.group?.startsWith('inline'))),
            `none of ${named.map((c) => c.title).join(', ')} has an inline button`,
          );
      }
    }
    assert.ok(checked >= 4, `only ${checked} commands named by title`);
  });

  it('the walkthrough and the status bar item it names', () => {
    const walkthrough = /\*\*Help → Welcome → ([^*]+)\*\*/.exec(prose)?.[1];
    assert.ok(walkthrough, 'README.md no longer says how to open the walkthrough');
    assert.ok(
      walkthroughs.some((w) => w.title === walkthrough),
      `no walkthrough titled "${walkthrough}"`,
    );
    const item = /`\$\(beaker\) ([^`]+)`/.exec(prose)?.[1];
    assert.ok(item, 'README.md no longer shows the status bar item');
    assert.ok(readFileSync(resolve(root, 'src/platform/statusBar.ts'), 'utf8').includes(`'${item}'`));
  });

  it('every setting and repository file it names exists', () => {
    const settings = [...readme.matchAll(/`(apiWorkbench\.[\w.]+)`/g)].map((m) => m[1]);
    const known = new Set(configuration.flatMap((c) => Object.keys(c.properties)));
    assert.ok(settings.length > 0);
    assert.deepEqual(
      settings.filter((s) => !known.has(s)),
      [],
      'settings the README names that do not exist',
    );
    const files = [...readme.matchAll(/`((?:src|test|docs|samples|schemas|scripts|media)\/[^`*\s]+)`/g)].map(
      (m) => m[1],
    );
    assert.ok(files.length > 0);
    assert.deepEqual(
      files.filter((f) => !existsSync(resolve(root, f))),
      [],
      'files the README names that do not exist',
    );
  });
});
