// The rows the four entity sets serve, computed on demand from the world's compact descriptors:
// nothing here is stored, so a page costs the same at row 10 as at row 10 million.
import { ACTIVITY_BY_METHOD, ANALYTICAL_METHODS, EQUIPMENT_BY_METHOD, LABORATORIES, PROVINCES } from './vocabulary';
import { isoDay, round, type Dataset, type Location, type World } from './world';

/** A /Metadata row: the dataset's descriptive record. */
export function metadataRow(world: World, d: Dataset): Record<string, unknown> {
  const year = d.publishedTimestamp.slice(0, 4);
  const charNames = new Set<string>();
  for (const l of d.locations.slice(0, 20)) for (const c of l.characteristics) charNames.add(c.name);
  return {
    Id: d.id,
    DOI: d.doi,
    Version: d.version,
    DatasetName: d.name,
    DataStewardEmail: `data@${d.organization.toLowerCase().replace(/[^a-z]+/g, '')}.example.org`,
    DataCollectionOrganization: d.organization,
    DataUploadOrganization: d.uploader,
    ProgressCode: world.rand(40, d.index) < 0.7 ? 'onGoing' : 'completed',
    MaintenanceFrequencyCode: world.rand(41, d.index) < 0.5 ? 'asNeeded' : 'annually',
    Abstract: `Community-based monitoring of water quality across ${d.locations.length} sites in ${PROVINCES[d.province].name}.`,
    DataCollectionInformation:
      'Field measurements with calibrated multiparameter probes; grab samples analysed by an accredited laboratory.',
    DataProcessing: 'Values reviewed by the data steward; outliers flagged in ResultComment.',
    FundingSources: `${PROVINCES[d.province].name} Environmental Monitoring Fund`,
    DataSourceURL:
      world.rand(42, d.index) < 0.5
        ? null
        : `https://${d.organization.toLowerCase().replace(/[^a-z]+/g, '')}.example.org/data`,
    OtherDataSources: '',
    Citation: `${d.organization}. ${year}. "${d.name}" (dataset). ${d.version}. DataStream. https://doi.org/${d.doi}.`,
    Licence: d.licence,
    Disclaimer: d.disclaimer,
    TopicCategoryCode: ['inlandWaters'],
    Keywords: ['Water quality', ...[...charNames].slice(0, 3)],
    CreateTimestamp: d.createTimestamp,
    PublishedTimestamp: d.publishedTimestamp,
    TemporalExtent: [isoDay(d.firstDay), isoDay(d.lastDay)],
  };
}

/** A /Locations row. */
export function locationRow(l: Location): Record<string, unknown> {
  return {
    Id: l.id,
    DOI: l.dataset.doi,
    ID: l.monitoringLocationId,
    Name: l.name,
    Latitude: l.latitude,
    Longitude: l.longitude,
    HorizontalCoordinateReferenceSystem: l.crs,
    HorizontalAccuracyMeasure: l.accuracy,
    HorizontalAccuracyUnit: l.accuracy === null ? null : 'm',
    VerticalMeasure: l.verticalMeasure,
    VerticalUnit: l.verticalMeasure === null ? null : 'm',
    MonitoringLocationType: l.type,
    LatitudeNormalized: l.latitude,
    LongitudeNormalized: l.longitude,
    HorizontalCoordinateReferenceSystemNormalized: 'WGS84',
  };
}

/** Observation k of a location, computed from (seed, location, k): a seasonal value plus noise. */
export function observationRow(world: World, l: Location, k: number): Record<string, unknown> {
  const c = world.characteristicOf(l, k);
  const day = world.dayOf(l, k);
  const s = Math.floor(k / l.characteristics.length);
  const activity = ACTIVITY_BY_METHOD[c.method];
  const minutes =
    (7 * 60 + Math.floor(world.rand(50, l.index, s) * 10 * 60) + (c.method === 'logger' ? (s % 24) * 60 : 0)) %
    (24 * 60);
  const time = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`;
  // A seasonal cycle plus noise keeps charts plausible; a few lab results fall below detection.
  const doy = ((day % 365) + 365) % 365;
  const season = 0.5 - 0.5 * Math.cos(((doy - 20) / 365) * 2 * Math.PI);
  const phase = c.name === 'Dissolved oxygen (DO)' || c.name === 'Dissolved oxygen saturation' ? 1 - season : season;
  const noise = (world.rand(51, l.index, k) - 0.5) * 0.3;
  const raw = c.low + (c.high - c.low) * Math.min(1, Math.max(0, phase + noise));
  const notDetected = c.method === 'lab' && world.rand(52, l.index, k) < 0.04;
  const lab = c.method === 'lab';
  const method = lab
    ? ANALYTICAL_METHODS[Math.floor(world.rand(53, l.index, c.name.length) * ANALYTICAL_METHODS.length)]
    : undefined;
  const equipment = EQUIPMENT_BY_METHOD[c.method];
  const comment =
    world.rand(54, l.index, k) < 0.01 ? 'Value flagged by data steward: probe recalibrated after reading.' : null;
  return {
    Id: world.observationId(l, k),
    DOI: l.dataset.doi,
    LocationId: l.id,
    ActivityType: activity.type,
    ActivityMediaName: l.ground ? 'Groundwater' : 'Surface Water',
    ActivityStartDate: isoDay(day),
    ActivityStartTime: time,
    ActivityStartTimeZone: world.rand(55, l.index) < 0.5 ? null : '-06:00',
    ActivityEndDate: null,
    ActivityEndTime: null,
    ActivityEndTimeZone: null,
    ActivityDepthHeightMeasure: l.ground ? null : -round(0.1 + world.rand(56, l.index, s) * 1.5, 2),
    ActivityDepthHeightUnit: l.ground ? null : 'm',
    SampleCollectionEquipmentName: equipment[Math.floor(world.rand(57, l.index, c.name.length) * equipment.length)],
    CharacteristicName: c.name,
    MethodSpeciation: c.speciation ?? null,
    ResultSampleFraction: c.fraction ?? null,
    ResultValue: notDetected ? null : round(raw, c.decimals),
    ResultUnit: c.unit,
    ResultValueType: 'Actual',
    ResultDetectionCondition: notDetected ? 'Not Detected' : null,
    ResultDetectionQuantitationLimitUnit: lab ? c.unit : null,
    ResultDetectionQuantitationLimitMeasure: lab ? round(c.low / 2, c.decimals + 1) : null,
    ResultDetectionQuantitationLimitType: lab ? 'Method Detection Level' : null,
    ResultStatusID: world.rand(58, l.index, s) < 0.9 ? 'Accepted' : 'Provisional',
    ResultComment: comment,
    ResultAnalyticalMethodID: method?.id ?? null,
    ResultAnalyticalMethodContext: method?.context ?? null,
    ResultAnalyticalMethodName: method?.name ?? null,
    AnalysisStartDate: lab ? isoDay(day + 1 + Math.floor(world.rand(59, l.index, s) * 6)) : null,
    AnalysisStartTime: lab ? '09:00:00' : null,
    AnalysisStartTimeZone: lab ? '-05:00' : null,
    LaboratoryName: lab ? LABORATORIES[l.dataset.index % LABORATORIES.length] : null,
    LaboratorySampleID: lab ? `${l.monitoringLocationId}-${s}` : null,
    CreateTimestamp: l.dataset.createTimestamp,
  };
}

/** A /Records row: the observation joined with its dataset and location. */
export function recordRow(world: World, l: Location, k: number): Record<string, unknown> {
  const o = observationRow(world, l, k);
  return {
    Id: o.Id,
    DOI: o.DOI,
    DatasetName: l.dataset.name,
    MonitoringLocationID: l.monitoringLocationId,
    MonitoringLocationName: l.name,
    MonitoringLocationLatitude: l.latitude,
    MonitoringLocationLongitude: l.longitude,
    MonitoringLocationHorizontalCoordinateReferenceSystem: l.crs,
    MonitoringLocationHorizontalAccuracyMeasure: l.accuracy,
    MonitoringLocationHorizontalAccuracyUnit: l.accuracy === null ? null : 'm',
    MonitoringLocationVerticalMeasure: l.verticalMeasure,
    MonitoringLocationVerticalUnit: l.verticalMeasure === null ? null : 'm',
    MonitoringLocationType: l.type,
    ActivityType: o.ActivityType,
    ActivityMediaName: o.ActivityMediaName,
    ActivityStartDate: o.ActivityStartDate,
    ActivityStartTime: o.ActivityStartTime,
    ActivityStartTimeZone: o.ActivityStartTimeZone,
    ActivityEndDate: o.ActivityEndDate,
    ActivityEndTime: o.ActivityEndTime,
    ActivityEndTimeZone: o.ActivityEndTimeZone,
    ActivityDepthHeightMeasure: o.ActivityDepthHeightMeasure,
    ActivityDepthHeightUnit: o.ActivityDepthHeightUnit,
    SampleCollectionEquipmentName: o.SampleCollectionEquipmentName,
    CharacteristicName: o.CharacteristicName,
    MethodSpeciation: o.MethodSpeciation,
    ResultSampleFraction: o.ResultSampleFraction,
    ResultValue: o.ResultValue,
    ResultUnit: o.ResultUnit,
    ResultValueType: o.ResultValueType,
    ResultDetectionCondition: o.ResultDetectionCondition,
    ResultDetectionQuantitationLimitMeasure: o.ResultDetectionQuantitationLimitMeasure,
    ResultDetectionQuantitationLimitUnit: o.ResultDetectionQuantitationLimitUnit,
    ResultDetectionQuantitationLimitType: o.ResultDetectionQuantitationLimitType,
    ResultStatusID: o.ResultStatusID,
    ResultComment: o.ResultComment,
    ResultAnalyticalMethodID: o.ResultAnalyticalMethodID,
    ResultAnalyticalMethodContext: o.ResultAnalyticalMethodContext,
    ResultAnalyticalMethodName: o.ResultAnalyticalMethodName,
    AnalysisStartDate: o.AnalysisStartDate,
    AnalysisStartTime: o.AnalysisStartTime,
    AnalysisStartTimeZone: o.AnalysisStartTimeZone,
    LaboratoryName: o.LaboratoryName,
    LaboratorySampleID: o.LaboratorySampleID,
  };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
