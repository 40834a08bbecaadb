import * as assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { StorageClient } from '../../../src/storage/core/client';
import { searchLabel, searchQuery } from '../../../src/storage/core/search';
import { StorageTreeModel } from '../../../src/storage/core/tree';

describe('storage search: the q clause', () => {
  it('searches titles or contents, trashed files excluded', () => {
    assert.equal(searchQuery({ text: 'report', mode: 'title' }), "title contains 'report' and trashed = false");
    assert.equal(searchQuery({ text: 'report', mode: 'fullText' }), "fullText contains 'report' and trashed = false");
  });

  it('escapes quotes and backslashes so the text can never end the literal', () => {
    assert.equal(
      searchQuery({ text: `it's a\\b`, mode: 'title' }),
      "title contains 'it\\'s a\\\\b' and trashed = false",
    );
    // A text trying to close the literal and add its own clause stays one literal.
    assert.equal(
      searchQuery({ text: `x' or title contains '`, mode: 'fullText' }),
      "fullText contains 'x\\' or title contains \\'' and trashed = false",
    );
  });

  it('blank text is no search; the text is trimmed', () => {
    assert.equal(searchQuery({ text: '   ', mode: 'title' }), undefined);
    assert.equal(searchLabel({ text: '  notes ', mode: 'title' }), 'Search: "notes"');
    assert.equal(searchLabel({ text: 'notes', mode: 'fullText' }), 'Search: "notes" in contents');
  });
});

describe('storage search in the tree model, against the sandbox', () => {
  let sb: RunningSandbox;
  let model: StorageTreeModel;
  let client: StorageClient;

  before(async () => {
    sb = await startSandbox();
    client = new StorageClient({ baseUrl: sb.storage, auth: { token: () => sb.accessToken } });
  });
  after(async () => sb.close());
  beforeEach(() => {
    model = new StorageTreeModel(client, { pageSize: 100 });
  });

  const labels = async (parent?: Parameters<StorageTreeModel['children']>[0]) =>
    (await model.children(parent)).map((e) => model.present(e).label);

  it('a search adds a results root above the others; clearing removes it', async () => {
    const title = `quote's \\ search ${Date.now()}.txt`;
    await client.call('files.insert', {}, { title, mimeType: 'text/plain' });
    model.setSearch({ text: `quote's \\ search`, mode: 'title' });
    const roots = await model.children();
    assert.equal(model.present(roots[0]).label, `Search: "quote's \\ search"`);
    assert.deepEqual(await labels(roots[0]), [title]);
    model.setSearch(undefined);
    assert.deepEqual((await labels()).slice(0, 1), ['My files']);
  });

  it('no match shows an empty state that says how to get back', async () => {
    model.setSearch({ text: `nothing-matches-${Date.now()}`, mode: 'fullText' });
    const [root] = await model.children();
    const kids = await model.children(root);
    assert.equal(kids.length, 1);
    assert.equal(kids[0].type, 'message');
    assert.match(model.present(kids[0]).label, /clear the search/);
  });

  it('a blank search is no search', async () => {
    model.setSearch({ text: '  ', mode: 'title' });
    assert.equal(model.activeSearch, undefined);
    assert.equal((await labels())[0], 'My files');
  });
});
