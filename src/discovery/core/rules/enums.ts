import { schemaNodeRule } from './types';
import { repeats } from './util';

export const enumDescriptionsLength = schemaNodeRule(
  {
    code: 'enum-descriptions-length',
    nodeKey: 'enum',
    defaultSeverity: 'error',
    summary: '`enumDescriptions` has one entry per `enum` value.',
  },
  (n, model, report) => {
    const { enum: values, enumDescriptions: descs } = n.value;
    if (!Array.isArray(values) || !Array.isArray(descs) || values.length === descs.length) return;
    report({
      path: [...n.path, 'enumDescriptions'],
      at: 'key',
      message: `enumDescriptions has ${descs.length} entr${descs.length === 1 ? 'y' : 'ies'} for ${values.length} enum value${values.length === 1 ? '' : 's'}; position i describes enum[i], so make the lengths equal.`,
      data: { enumLength: values.length, descriptionsLength: descs.length },
    });
  },
);

export const enumDeprecatedLength = schemaNodeRule(
  {
    code: 'enum-deprecated-length',
    nodeKey: 'enum',
    defaultSeverity: 'warning',
    summary: '`enumDeprecated` has one flag per `enum` value.',
  },
  (n, model, report) => {
    const { enum: values, enumDeprecated: flags } = n.value;
    if (!Array.isArray(values) || !Array.isArray(flags) || values.length === flags.length) return;
    report({
      path: [...n.path, 'enumDeprecated'],
      at: 'key',
      message: `enumDeprecated has ${flags.length} flags for ${values.length} enum values; position i flags enum[i], so make the lengths equal.`,
      data: { enumLength: values.length, deprecatedLength: flags.length },
    });
  },
);

export const enumDuplicateValue = schemaNodeRule(
  {
    code: 'enum-duplicate-value',
    nodeKey: 'enum',
    defaultSeverity: 'warning',
    summary: 'No value appears twice in one `enum`.',
  },
  (n, model, report) => {
    const values = n.value.enum;
    if (!Array.isArray(values)) return;
    const seen = repeats(values);
    for (let i = 0; i < values.length; i++) {
      if (seen(values[i], i))
        report({
          path: [...n.path, 'enum', i],
          message: `Enum value ${JSON.stringify(values[i])} is listed twice; remove the repeat (and its description).`,
          data: { index: i },
        });
    }
  },
);
