// Metadata rows read better as dataset cards than as a 20-column table.
import { button, el, link, safeHttpUrl } from './dom';
import { doiUrl, licenceNodes } from './attribution';
import { cellText, type Row } from './values';

const FIRST_BATCH = 24;

function text(v: unknown): string {
  return cellText(v).trim();
}

function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => cellText(x).trim()).filter(Boolean);
  const s = text(v);
  return s ? s.split(/\s*[;,]\s*/).filter(Boolean) : [];
}

function chips(doc: Document, values: string[]): HTMLElement {
  const wrap = el(doc, 'div', { className: 'wq-chips' });
  for (const v of values) wrap.append(el(doc, 'span', { className: 'wq-chip', text: v }));
  return wrap;
}

export function renderCard(doc: Document, row: Row): HTMLElement {
  const card = el(doc, 'article', { className: 'wq-card', attrs: { 'data-testid': 'water-card' } });
  const name = text(row.DatasetName) || text(row.DOI) || 'Untitled dataset';
  card.append(el(doc, 'h3', { text: name }));
  const orgs = [text(row.DataCollectionOrganization), text(row.DataUploadOrganization)].filter(Boolean);
  const uniqueOrgs = [...new Set(orgs)];
  if (uniqueOrgs.length)
    card.append(el(doc, 'div', { className: 'wq-card-org', text: uniqueOrgs.join(' · uploaded by ') }));
  if (text(row.Abstract)) card.append(el(doc, 'div', { className: 'wq-card-abstract', text: text(row.Abstract) }));

  const dl = el(doc, 'dl');
  const add = (label: string, value: Node | string | undefined) => {
    if (value === undefined || value === '') return;
    dl.append(el(doc, 'dt', { text: label }), el(doc, 'dd', {}, [value]));
  };
  const doi = text(row.DOI);
  if (doi) add('DOI', link(doc, doiUrl(doi), `https://doi.org/${doi}`));
  add('Version', text(row.Version));
  const extent = Array.isArray(row.TemporalExtent) ? row.TemporalExtent.map((x) => cellText(x)).filter(Boolean) : [];
  if (extent.length) add('Period', extent.join(' – '));
  const keywords = listOf(row.Keywords);
  if (keywords.length) add('Keywords', chips(doc, keywords));
  const topics = listOf(row.TopicCategoryCode);
  if (topics.length) add('Topics', chips(doc, topics));
  add(
    'Progress',
    [text(row.ProgressCode), text(row.MaintenanceFrequencyCode) && `updated ${text(row.MaintenanceFrequencyCode)}`]
      .filter(Boolean)
      .join(', '),
  );
  add('Funding', text(row.FundingSources));
  const source = text(row.DataSourceURL);
  if (source) add('Source', safeHttpUrl(source) ? link(doc, source) : source);
  add(
    'Citation',
    text(row.Citation) ? el(doc, 'span', { className: 'wq-citation', text: text(row.Citation) }) : undefined,
  );
  add('Licence', licenceNodes(doc, text(row.Licence) || undefined, text(row.Disclaimer) || undefined));
  const email = text(row.DataStewardEmail);
  if (email) add('Data steward', email);
  const published = text(row.PublishedTimestamp) || text(row.CreateTimestamp);
  if (published) add(row.PublishedTimestamp ? 'Published' : 'Created', published.slice(0, 10));
  card.append(dl);
  return card;
}

/** Cards for the Metadata rows, the first batch at once and the rest on demand. */
export function renderCards(doc: Document, rows: Row[]): HTMLElement {
  const wrap = el(doc, 'div', { className: 'wq-cards-wrap' });
  const grid = el(doc, 'div', { className: 'wq-cards' });
  wrap.append(grid);
  let shown = 0;
  const more = button(doc, '', 'Show more dataset cards', () => showNext());
  function showNext(): void {
    const end = Math.min(rows.length, shown + FIRST_BATCH);
    for (let i = shown; i < end; i++) grid.append(renderCard(doc, rows[i]));
    shown = end;
    if (shown < rows.length) {
      more.textContent = `Show ${Math.min(FIRST_BATCH, rows.length - shown)} more of ${rows.length - shown}`;
      if (!more.isConnected) wrap.append(more);
    } else {
      more.remove();
    }
  }
  showNext();
  if (!rows.length) grid.append(el(doc, 'div', { className: 'wq-muted', text: 'No datasets matched the query.' }));
  return wrap;
}
