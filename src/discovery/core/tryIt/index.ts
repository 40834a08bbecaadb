// Try it (editor-free): the form of a method, URL expansion, the request, curl, and error explanations.
export { tryItForm, type TryField, type TryForm, type TryEnumValue } from './form';
export { checkBody, type BodyProblem } from './bodyCheck';
export {
  buildTryRequest,
  mediaTypeOf,
  toCurl,
  tryValuesOf,
  TryItInputError,
  type TryCredential,
  type TryRequest,
  type TryValues,
} from './request';
export { explainRpcError, type RpcErrorExplanation } from './rpcError';
export { expandTemplate } from './uriTemplate';
export { sendTryRequest, type TryOutcome, type TryResponse } from './send';
export { completeBody, type BodyCompletion, type BodyCompletions } from './bodyComplete';
