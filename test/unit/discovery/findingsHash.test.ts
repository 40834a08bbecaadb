// The worker's path (detectDiscoveryDocument, then analyzeParsed) over every shared document, with the
// default severities and with every rule on, pinned to hashes taken from main before the analysis was
// made cheaper per byte (issue 11, session 6): the same codes, severities, ranges, messages and data,
// in the same order. A changed hash names the document; diff its findings against main's to see why.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyzeParsed, detectDiscoveryDocument, RULES, type RuleSettings } from '../../../src/discovery/core';
import { listAtLoad } from '../../support/sharedData';
import { realDocumentFiles } from './helpers';

const ALL_ON: RuleSettings = Object.fromEntries(RULES.map((r) => [r.code, 'warning' as const]));

/** "<count> <first 16 hex of sha256>" of the findings, one JSON line each. */
function digest(text: string, rules: RuleSettings): string {
  const parsed = detectDiscoveryDocument(text);
  assert.ok(parsed, 'detected as a description document');
  const d = analyzeParsed(parsed, { rules }).diagnostics;
  const lines = d.map((x) => JSON.stringify([x.code, x.severity, x.offset, x.length, x.message, x.data ?? null]));
  return `${d.length} ${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
}

// Document → "default severities | every rule on".
const EXPECTED = new Map<string, string>([
  ['abusiveexperiencereport.v1.json', '0 e3b0c44298fc1c14 | 1 1173a111b4feb5da'],
  ['adexperiencereport.v1.json', '0 e3b0c44298fc1c14 | 1 e71d2ccb9e6fe2ad'],
  ['aiplatform.v1.json', '3 0671f4026c89aed3 | 3741 c3f7fd2cc495bff0'],
  ['aiplatform.v1beta1.json', '21 cd2743373d10df3e | 4022 7cc36d6ad671bf02'],
  ['analyticshub.v1.json', '0 e3b0c44298fc1c14 | 117 56145ba6432cb05d'],
  ['analyticshub.v1beta1.json', '0 e3b0c44298fc1c14 | 67 46b1c15a45d01a4b'],
  ['biglake.v1.json', '0 e3b0c44298fc1c14 | 83 9483e3187658f96e'],
  ['bigquery.v2.json', '32 2cf279807e2b2d20 | 150 60e000ba968c1d33'],
  ['bigqueryconnection.v1.json', '0 e3b0c44298fc1c14 | 22 8592fe52345597d1'],
  ['bigqueryconnection.v1beta1.json', '0 e3b0c44298fc1c14 | 25 8e88ab70582d867c'],
  ['bigquerydatapolicy.v1.json', '0 e3b0c44298fc1c14 | 25 99a8689ca928d840'],
  ['bigquerydatapolicy.v2.json', '0 e3b0c44298fc1c14 | 28 88b149e86bc0f11f'],
  ['bigquerydatatransfer.v1.json', '0 e3b0c44298fc1c14 | 90 1d0b3e523094a478'],
  ['bigqueryreservation.v1.json', '0 e3b0c44298fc1c14 | 94 25a5ae52a77b56c7'],
  ['billingbudgets.v1.json', '0 e3b0c44298fc1c14 | 8 2f0ce3e87fc6087f'],
  ['billingbudgets.v1beta1.json', '0 e3b0c44298fc1c14 | 8 d0ab1ecda328b021'],
  ['chromeuxreport.v1.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['cloudbilling.v1.json', '1 63e7a0b422278730 | 17 49e5bcfcd80baa33'],
  ['cloudbilling.v1beta.json', '0 e3b0c44298fc1c14 | 25 fa6135f9f60add2c'],
  ['connectors.v1.json', '0 e3b0c44298fc1c14 | 247 4d18880ce3481904'],
  ['connectors.v2.json', '0 e3b0c44298fc1c14 | 112 b4bdaa6151f08784'],
  ['datacatalog.v1.json', '0 e3b0c44298fc1c14 | 229 8587a4aa5e5e0b55'],
  ['datacatalog.v1beta1.json', '0 e3b0c44298fc1c14 | 249 995bdd4f3b1f070c'],
  ['dataform.v1.json', '0 e3b0c44298fc1c14 | 289 986332de02a557b3'],
  ['dataform.v1beta1.json', '0 e3b0c44298fc1c14 | 312 d2fd890834eb0b3c'],
  ['datalineage.v1.json', '0 e3b0c44298fc1c14 | 81 b72eade92e8ccf76'],
  ['datapipelines.v1.json', '0 e3b0c44298fc1c14 | 22 b06127b711b748d3'],
  ['dataplex.v1.json', '0 e3b0c44298fc1c14 | 720 ac2048171d550387'],
  ['discovery.v1.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['drive.v2.json', '3 704f65f19471db7c | 3 42fa6abd77866760'],
  ['looker.v1.json', '0 e3b0c44298fc1c14 | 59 1738ec68af52dc6a'],
  ['pagespeedonline.v5.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['safebrowsing.v4.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['safebrowsing.v5.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['searchconsole.v1.json', '0 e3b0c44298fc1c14 | 10 b57bd8813410bd8a'],
  ['tagmanager.v1.json', '0 e3b0c44298fc1c14 | 0 e3b0c44298fc1c14'],
  ['tagmanager.v2.json', '0 e3b0c44298fc1c14 | 319 fb965d5216089d98'],
  ['versionhistory.v1.json', '0 e3b0c44298fc1c14 | 10 025043bf9444c344'],
  ['webrisk.v1.json', '0 e3b0c44298fc1c14 | 11 6dffda38c1d6ca3b'],
]);

describe('worker-path findings over the shared documents match main before the speed-up', function () {
  this.timeout(60000);
  const { files, failIfMissing } = listAtLoad(realDocumentFiles);

  it('covers every shared document', () => {
    failIfMissing();
    assert.deepEqual(files.map((f) => basename(f)).sort(), [...EXPECTED.keys()].sort());
  });

  for (const file of files) {
    it(`${basename(file)}: default severities and every rule on`, () => {
      const text = readFileSync(file, 'utf8');
      assert.equal(`${digest(text, {})} | ${digest(text, ALL_ON)}`, EXPECTED.get(basename(file)));
    });
  }
});
