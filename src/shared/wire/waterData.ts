// Wire facts of the water-quality OData API (spec §2.4, §4.4, §7, §8), shared by the emulator and the
// client core. Only names, limits and body shapes live here — no behaviour.

export const WATER_PATH_PREFIX = '/v1/odata/v4';
export const WATER_PRODUCTION_BASE_URL = 'https://api.datastream.org/v1/odata/v4';
export const WATER_QA_BASE_URL = 'https://api.qa.datastream.org/v1/odata/v4';

export const WATER_ENTITY_SETS = ['Metadata', 'Locations', 'Observations', 'Records'] as const;
export type WaterEntitySet = (typeof WATER_ENTITY_SETS)[number];

export const WATER_MAX_TOP = 10000;
/** What the service uses when a request has no $top (OpenAPI default). */
export const WATER_DEFAULT_TOP = 10;
export const WATER_MIN_INTERVAL_MS = 500;
/** Rows beyond which the service asks clients to partition a request. */
export const WATER_PARTITION_THRESHOLD = 1_000_000;
export const WATER_API_KEY_HEADER = 'x-api-key';

/** Columns a `$select` may name, in the order responses carry them. */
export const WATER_SELECT_FIELDS: Record<WaterEntitySet, readonly string[]> = {
  Metadata: [
    'Id',
    'DOI',
    'Version',
    'DatasetName',
    'DataStewardEmail',
    'DataCollectionOrganization',
    'DataUploadOrganization',
    'ProgressCode',
    'MaintenanceFrequencyCode',
    'Abstract',
    'DataCollectionInformation',
    'DataProcessing',
    'FundingSources',
    'DataSourceURL',
    'OtherDataSources',
    'Citation',
    'Licence',
    'Disclaimer',
    'TopicCategoryCode',
    'Keywords',
    'CreateTimestamp',
    'PublishedTimestamp',
    'TemporalExtent',
  ],
  Locations: [
    'Id',
    'DOI',
    'ID',
    'Name',
    'Latitude',
    'Longitude',
    'HorizontalCoordinateReferenceSystem',
    'HorizontalAccuracyMeasure',
    'HorizontalAccuracyUnit',
    'VerticalMeasure',
    'VerticalUnit',
    'MonitoringLocationType',
    'LatitudeNormalized',
    'LongitudeNormalized',
    'HorizontalCoordinateReferenceSystemNormalized',
  ],
  Observations: [
    'Id',
    'LocationId',
    'DOI',
    'ActivityType',
    'ActivityMediaName',
    'ActivityStartDate',
    'ActivityStartTime',
    'ActivityStartTimeZone',
    'ActivityEndDate',
    'ActivityEndTime',
    'ActivityEndTimeZone',
    'ActivityDepthHeightMeasure',
    'ActivityDepthHeightUnit',
    'SampleCollectionEquipmentName',
    'CharacteristicName',
    'MethodSpeciation',
    'ResultSampleFraction',
    'ResultValue',
    'ResultUnit',
    'ResultValueType',
    'ResultDetectionCondition',
    'ResultDetectionQuantitationLimitUnit',
    'ResultDetectionQuantitationLimitMeasure',
    'ResultDetectionQuantitationLimitType',
    'ResultStatusID',
    'ResultComment',
    'ResultAnalyticalMethodID',
    'ResultAnalyticalMethodContext',
    'ResultAnalyticalMethodName',
    'AnalysisStartDate',
    'AnalysisStartTime',
    'AnalysisStartTimeZone',
    'LaboratoryName',
    'LaboratorySampleID',
    'CreateTimestamp',
  ],
  Records: [
    'Id',
    'DOI',
    'DatasetName',
    'MonitoringLocationID',
    'MonitoringLocationName',
    'MonitoringLocationLatitude',
    'MonitoringLocationLongitude',
    'MonitoringLocationHorizontalCoordinateReferenceSystem',
    'MonitoringLocationHorizontalAccuracyMeasure',
    'MonitoringLocationHorizontalAccuracyUnit',
    'MonitoringLocationVerticalMeasure',
    'MonitoringLocationVerticalUnit',
    'MonitoringLocationType',
    'ActivityType',
    'ActivityMediaName',
    'ActivityStartDate',
    'ActivityStartTime',
    'ActivityStartTimeZone',
    'ActivityEndDate',
    'ActivityEndTime',
    'ActivityEndTimeZone',
    'ActivityDepthHeightMeasure',
    'ActivityDepthHeightUnit',
    'SampleCollectionEquipmentName',
    'CharacteristicName',
    'MethodSpeciation',
    'ResultSampleFraction',
    'ResultValue',
    'ResultUnit',
    'ResultValueType',
    'ResultDetectionCondition',
    'ResultDetectionQuantitationLimitMeasure',
    'ResultDetectionQuantitationLimitUnit',
    'ResultDetectionQuantitationLimitType',
    'ResultStatusID',
    'ResultComment',
    'ResultAnalyticalMethodID',
    'ResultAnalyticalMethodContext',
    'ResultAnalyticalMethodName',
    'AnalysisStartDate',
    'AnalysisStartTime',
    'AnalysisStartTimeZone',
    'LaboratoryName',
    'LaboratorySampleID',
  ],
};

/**
 * Fields a `$filter` may name per set: the §4.4 table plus what the current public docs add (Latitude/Longitude
 * replaced the removed Normalized pair; LocationId on Locations; ActivityGroupType everywhere), so queries
 * pasted from either source validate.
 */
export const WATER_FILTER_FIELDS: Record<WaterEntitySet, readonly string[]> = {
  Metadata: [
    'DOI',
    'DatasetName',
    'RegionId',
    'MonitoringLocationType',
    'Latitude',
    'Longitude',
    'LatitudeNormalized',
    'LongitudeNormalized',
    'CreateTimestamp',
    'LocationId',
    'ActivityMediaName',
    'ActivityGroupType',
    'CharacteristicName',
    'ActivityStartYear',
  ],
  Locations: [
    'Id',
    'LocationId',
    'DOI',
    'MonitoringLocationType',
    'ActivityStartYear',
    'ActivityMediaName',
    'ActivityGroupType',
    'CharacteristicName',
    'RegionId',
    'Name',
    'Latitude',
    'Longitude',
    'LatitudeNormalized',
    'LongitudeNormalized',
  ],
  Observations: [
    'DOI',
    'MonitoringLocationType',
    'ActivityStartYear',
    'ActivityMediaName',
    'ActivityGroupType',
    'CharacteristicName',
    'RegionId',
    'LocationId',
    'Latitude',
    'Longitude',
    'LatitudeNormalized',
    'LongitudeNormalized',
  ],
  Records: [
    'DOI',
    'MonitoringLocationType',
    'ActivityStartYear',
    'ActivityMediaName',
    'ActivityGroupType',
    'CharacteristicName',
    'RegionId',
    'LocationId',
  ],
};

export const WATER_HUBS = ['atlantic', 'greatlakes', 'lakewinnipeg', 'mackenzie', 'pacific'] as const;
export const WATER_PROVINCES = ['ab', 'bc', 'mb', 'nb', 'nl', 'ns', 'nt', 'nu', 'on', 'pe', 'qc', 'sk', 'yt'] as const;
export const WATER_REGION_IDS: readonly string[] = [
  ...WATER_HUBS.map((h) => `hub.${h}`),
  'admin.2.ca',
  ...WATER_PROVINCES.map((p) => `admin.4.ca.${p}`),
];

/** OData's standard spellings, accepted by the service's R documentation only; we accept and canonicalise them. */
export const WATER_OPERATOR_ALIASES: Record<string, string> = { ge: 'gte', le: 'lte' };

export const WATER_DOI_PATTERN = /^10\.(25976|81029)\/[a-z0-9]{4}-[a-z0-9]{2}[0-9]{2}$/;

/** A list response. The OpenAPI document spells the paging keys without `@`; README and clients use `@odata.nextLink`. */
export interface WaterPage<Row = Record<string, unknown>> {
  value: Row[];
  '@odata.nextLink'?: string;
  /** Records only (spec §2.4). */
  '@data.context'?: string;
}

/** `$count=true` answers only the number (clients read the scalar `value`). */
export interface WaterCountBody {
  value: number;
  'odata.count'?: number;
  /** Sandbox and service mark large counts as estimates. */
  '@odata.count.estimate'?: boolean;
}

/** Gateway-level rejections (bad encoding, key, throttling, timeouts) carry a bare `message`. */

/** Application errors carry an `errors` member (the shell client prints `.errors`). */
export interface WaterAppError {
  errors: { status: string; title: string; detail: string; source?: { parameter: string } }[];
}

export const RECORDS_DATA_CONTEXT = 'odata/v4/Records/$links/Metadata(Id=@DatasetId)';
