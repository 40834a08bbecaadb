import type { WaterResult } from '../protocol';
import { el } from './dom';

/** `$count=true` answers with a number only; it is the whole result, so it is shown large. */
export function renderCount(doc: Document, result: WaterResult): HTMLElement {
  const count = result.count!;
  const box = el(doc, 'div', { className: 'wq-count', attrs: { role: 'status', 'data-testid': 'water-count' } });
  const value = el(doc, 'span', {
    className: 'wq-count-value',
    text: Number.isFinite(count.value) ? count.value.toLocaleString('en-US') : String(count.value),
  });
  value.dataset.value = String(count.value);
  const line = el(doc, 'div', {}, [
    count.estimate
      ? el(doc, 'span', { className: 'wq-count-approx', text: '≈ ', attrs: { 'aria-hidden': 'true' } })
      : null,
    value,
  ]);
  if (count.estimate) {
    line.append(
      el(doc, 'span', {
        className: 'wq-badge wq-estimate',
        text: 'estimate',
        title: 'Large counts are estimated by the service (about 0.0005% accurate).',
      }),
    );
  }
  box.append(
    line,
    el(doc, 'div', {
      className: 'wq-count-label',
      text: `${result.entitySet} matching the query${count.estimate ? ' (estimated by the service, about ±0.0005%)' : ''}`,
    }),
  );
  return box;
}
