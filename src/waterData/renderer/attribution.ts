// The terms of use of DataStream datasets require the citation, the licence and a DOI link beside
// any presentation of the rows, so every result view ends with this footer.
import type { DatasetAttribution } from '../protocol';
import { el, link, safeHttpUrl } from './dom';
import { cellText, type Row } from './values';

export interface LicenceInfo {
  name: string;
  url?: string;
  /** OGL datasets carry a disclaimer that has to be shown with the licence. */
  needsDisclaimer: boolean;
}

const ODC_BY: LicenceInfo = {
  name: 'Open Data Commons Attribution License (ODC-By) v1.0',
  url: 'https://opendatacommons.org/licenses/by/1-0/',
  needsDisclaimer: false,
};
const ODC_PDDL: LicenceInfo = {
  name: 'Open Data Commons Public Domain Dedication and License (ODC-PDDL) v1.0',
  url: 'https://opendatacommons.org/licenses/pddl/1-0/',
  needsDisclaimer: false,
};
const OGL_NAME = 'Open Government Licence – Canada';

/** Maps the API's licence value (an id from the 2021 API or, now, a URL) to a name and a link. */
export function describeLicence(raw: string | undefined): LicenceInfo | undefined {
  const value = (raw ?? '').trim();
  if (!value) return undefined;
  const lower = value.toLowerCase();
  const url = safeHttpUrl(value);
  if (lower === 'odc-by' || /opendatacommons\.org\/licen[cs]es\/by(\/|$)/.test(lower))
    return { ...ODC_BY, url: url ?? ODC_BY.url };
  if (lower === 'odc-pddl' || /opendatacommons\.org\/licen[cs]es\/pddl(\/|$)/.test(lower))
    return { ...ODC_PDDL, url: url ?? ODC_PDDL.url };
  if (lower === 'ogl' || /open-government-licen[cs]e/.test(lower) || /licence-du-gouvernement-ouvert/.test(lower)) {
    // The OGL address depends on the publishing government, so only a URL the API gave is linked.
    return { name: OGL_NAME, url, needsDisclaimer: true };
  }
  if (url) return { name: url, url, needsDisclaimer: false };
  return { name: value, needsDisclaimer: false };
}

export function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi.trim())}`;
}

function doiLink(doc: Document, doi: string): HTMLElement {
  return link(doc, doiUrl(doi), `https://doi.org/${doi.trim()}`);
}

/** The licence line: name linked to its text, and for OGL the disclaimer (or a note that it is missing). */
export function licenceNodes(doc: Document, licence: string | undefined, disclaimer: string | undefined): HTMLElement {
  const info = describeLicence(licence);
  const wrap = el(doc, 'span', { className: 'wq-licence' });
  if (!info) {
    wrap.append(el(doc, 'span', { className: 'wq-muted', text: 'not stated in the dataset metadata' }));
    return wrap;
  }
  wrap.append(info.url ? link(doc, info.url, info.name) : el(doc, 'span', { text: info.name }));
  const disc = (disclaimer ?? '').trim();
  if (disc) {
    wrap.append(el(doc, 'div', { className: 'wq-disclaimer', text: `Disclaimer: ${disc}` }));
  } else if (info.needsDisclaimer) {
    wrap.append(
      el(doc, 'div', {
        className: 'wq-disclaimer wq-muted',
        text: 'Disclaimer: see the dataset page linked by its DOI.',
      }),
    );
  }
  return wrap;
}

function attributionItem(doc: Document, a: DatasetAttribution): HTMLElement {
  const item = el(doc, 'li', { className: 'wq-attribution' });
  const head = el(doc, 'div', { className: 'wq-attr-head' });
  head.append(el(doc, 'span', { className: 'wq-attr-name', text: a.datasetName?.trim() || a.doi }));
  head.append(' · DOI ', doiLink(doc, a.doi));
  item.append(head);
  item.append(
    el(doc, 'div', { className: 'wq-attr-line' }, [
      el(doc, 'span', { className: 'wq-attr-label', text: 'Citation: ' }),
      a.citation?.trim()
        ? el(doc, 'span', { className: 'wq-citation', text: a.citation.trim() })
        : el(doc, 'span', { className: 'wq-muted', text: 'not provided' }),
    ]),
  );
  item.append(
    el(doc, 'div', { className: 'wq-attr-line' }, [
      el(doc, 'span', { className: 'wq-attr-label', text: 'Licence: ' }),
      licenceNodes(doc, a.licence, a.disclaimer),
    ]),
  );
  return item;
}

/** DOIs the rows mention, for results whose Metadata could not be fetched. */
export function doisInRows(rows: Row[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) {
    const d = cellText(r['DOI']).trim();
    if (d) seen.add(d);
  }
  return [...seen].sort();
}

const doiKey = (doi: string) => doi.trim().toLowerCase();

/**
 * The footer every result ends with. `onCards` are the DOIs of datasets shown as cards (a Metadata result):
 * each card already carries its citation and licence, so the footer names them once, by the cards, instead
 * of citing them a second time.
 */
export function renderAttribution(
  doc: Document,
  attributions: DatasetAttribution[] | undefined,
  rows: Row[],
  onCards: readonly string[] = [],
): HTMLElement {
  const footer = el(doc, 'footer', {
    className: 'wq-footer',
    attrs: { 'aria-label': 'Data attribution', 'data-testid': 'water-attribution' },
  });
  const carded = new Set(onCards.map(doiKey));
  const all = attributions ?? [];
  const list = all.filter((a) => !carded.has(doiKey(a.doi)));
  footer.append(
    el(doc, 'div', { className: 'wq-footer-title', text: list.length === 1 ? 'Source dataset' : 'Source datasets' }),
  );
  if (carded.size) {
    footer.append(
      el(doc, 'div', {
        className: 'wq-attr-on-cards',
        text: `Each dataset card above shows its citation and licence (${carded.size === 1 ? 'one dataset' : `${carded.size} datasets`}).`,
      }),
    );
    if (!list.length) return footer;
  }
  if (list.length) {
    const ul = el(doc, 'ul', { className: 'wq-attr-list' });
    for (const a of list) ul.append(attributionItem(doc, a));
    footer.append(ul);
    return footer;
  }
  if (rows.length === 0) {
    // A count or an empty result carries no dataset's data: nothing failed, there is simply nothing to cite.
    footer.append(
      el(doc, 'div', {
        className: 'wq-attr-none',
        text: 'This result holds no data rows, so there is nothing to cite; rows you fetch come with their datasets’ citation and licence.',
      }),
    );
    return footer;
  }
  const dois = doisInRows(rows);
  const note = el(doc, 'div', { className: 'wq-attr-missing' });
  note.append(
    'Citation and licence could not be loaded for this result; cite each dataset through its DOI page before sharing the data.',
  );
  footer.append(note);
  if (dois.length) {
    const ul = el(doc, 'ul', { className: 'wq-attr-list' });
    for (const d of dois) ul.append(el(doc, 'li', { className: 'wq-attribution' }, ['DOI ', doiLink(doc, d)]));
    footer.append(ul);
  }
  return footer;
}
