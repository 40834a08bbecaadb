// The rule registry: order here is the order of docs/rules.md and of the settings description.
import { flatPathVariableUnknown, methodIdShape, methodScopesMissing } from './conventions';
import { baseUrlMismatch, documentIdMismatch, revisionFormat } from './document';
import { enumDeprecatedLength, enumDescriptionsLength, enumDuplicateValue } from './enums';
import { flatPathInconsistent } from './flatPath';
import {
  annotationRequiredUnknownMethod,
  httpMethodUnknown,
  mediaUploadInconsistent,
  mediaUploadMaxSize,
  methodIdDuplicate,
  requestBodyOnGet,
  requestParameterNameDeprecated,
  scopeUnknown,
} from './methods';
import {
  globalParameterShadowed,
  parameterLocationInvalid,
  parameterOrderDuplicate,
  parameterOrderMissingRequired,
  parameterOrderOptional,
  parameterOrderUnknown,
  pathParameterNotRequired,
  pathParameterUnused,
  pathReservedExpansionMultiple,
  pathVariableUndeclared,
} from './parameters';
import { refUnresolved, schemaIdMismatch, schemaUnused } from './references';
import {
  arrayWithoutItems,
  formatTypeMismatch,
  formatUnknown,
  itemsOnNonArray,
  patternInvalid,
  propertiesOnNonObject,
  typeUnknown,
} from './schemaTypes';
import { keyMissing, keyUnknown, valueNotAllowed, valueType } from './structure';
import type { Rule } from './types';

export const RULES: readonly Rule[] = [
  refUnresolved,
  schemaIdMismatch,
  schemaUnused,
  parameterOrderUnknown,
  parameterOrderDuplicate,
  parameterOrderMissingRequired,
  parameterOrderOptional,
  pathVariableUndeclared,
  pathParameterUnused,
  pathParameterNotRequired,
  pathReservedExpansionMultiple,
  flatPathInconsistent,
  parameterLocationInvalid,
  globalParameterShadowed,
  enumDescriptionsLength,
  enumDeprecatedLength,
  enumDuplicateValue,
  methodIdDuplicate,
  httpMethodUnknown,
  scopeUnknown,
  annotationRequiredUnknownMethod,
  mediaUploadInconsistent,
  mediaUploadMaxSize,
  requestBodyOnGet,
  requestParameterNameDeprecated,
  typeUnknown,
  arrayWithoutItems,
  itemsOnNonArray,
  propertiesOnNonObject,
  formatTypeMismatch,
  formatUnknown,
  patternInvalid,
  baseUrlMismatch,
  documentIdMismatch,
  revisionFormat,
  methodIdShape,
  flatPathVariableUnknown,
  methodScopesMissing,
  valueType,
  valueNotAllowed,
  keyMissing,
  keyUnknown,
];

export type { Rule } from './types';
