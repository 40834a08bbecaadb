// A curated slice of the DataStream schema 3.0.0 vocabularies (MIT, The Gordon Foundation) used to
// generate realistic rows: each unit is one the schema's lookups allow for the characteristic
// (lookup/CharacteristicName-MeasurementUnit.json, its -Guideline- variant, or the WQX group's units),
// value ranges inside the schema's quality-control rules (pH 0..14, water temperature −100..100 deg C).

export type Method = 'logger' | 'field' | 'lab';

export interface Characteristic {
  name: string;
  unit: string | null;
  /** Typical low and high of a seasonal cycle. */
  low: number;
  high: number;
  decimals: number;
  method: Method;
  fraction?: string;
  speciation?: string;
  /** Groundwater-only or surface-only parameters. */
  media?: 'surface' | 'ground';
}

export const CHARACTERISTICS: readonly Characteristic[] = [
  { name: 'Temperature, water', unit: 'deg C', low: 0.5, high: 22, decimals: 2, method: 'logger' },
  { name: 'pH', unit: null, low: 6.6, high: 8.6, decimals: 2, method: 'field' },
  { name: 'Dissolved oxygen (DO)', unit: 'mg/L', low: 6, high: 13, decimals: 2, method: 'field' },
  { name: 'Dissolved oxygen saturation', unit: '%', low: 70, high: 112, decimals: 1, method: 'field' },
  { name: 'Specific conductance', unit: 'uS/cm', low: 40, high: 900, decimals: 0, method: 'field' },
  { name: 'Turbidity', unit: 'NTU', low: 0.3, high: 45, decimals: 2, method: 'field', media: 'surface' },
  {
    name: 'Total Phosphorus, mixed forms',
    unit: 'mg/L',
    low: 0.005,
    high: 0.25,
    decimals: 4,
    method: 'lab',
    fraction: 'Total',
    speciation: 'as P',
  },
  {
    name: 'Total Nitrogen, mixed forms',
    unit: 'mg/L',
    low: 0.1,
    high: 2.5,
    decimals: 3,
    method: 'lab',
    fraction: 'Total',
    speciation: 'as N',
  },
  {
    name: 'Ammonia',
    unit: 'mg/L',
    low: 0.005,
    high: 0.4,
    decimals: 4,
    method: 'lab',
    fraction: 'Total',
    speciation: 'as N',
  },
  {
    name: 'Nitrate',
    unit: 'ug/L',
    low: 10,
    high: 3000,
    decimals: 1,
    method: 'lab',
    fraction: 'Dissolved',
    speciation: 'as N',
  },
  { name: 'Chloride', unit: 'mg/L', low: 1, high: 120, decimals: 2, method: 'lab', fraction: 'Dissolved' },
  { name: 'Escherichia coli', unit: '#/100mL', low: 1, high: 400, decimals: 0, method: 'lab', media: 'surface' },
  { name: 'Total suspended solids', unit: 'mg/L', low: 1, high: 60, decimals: 1, method: 'lab', media: 'surface' },
  { name: 'Alkalinity, total', unit: 'mg/L', low: 10, high: 180, decimals: 1, method: 'lab', speciation: 'as CaCO3' },
  { name: 'Calcium', unit: 'mg/L', low: 3, high: 90, decimals: 2, method: 'lab', fraction: 'Dissolved' },
  { name: 'Sodium', unit: 'mg/L', low: 1, high: 60, decimals: 2, method: 'lab', fraction: 'Dissolved' },
  { name: 'Hardness, Ca, Mg', unit: 'mg/L', low: 15, high: 300, decimals: 1, method: 'lab', speciation: 'as CaCO3' },
  { name: 'Sulfate', unit: 'mg/L', low: 1, high: 150, decimals: 2, method: 'lab', fraction: 'Dissolved' },
  { name: 'Total dissolved solids', unit: 'mg/L', low: 30, high: 600, decimals: 0, method: 'lab' },
  { name: 'Salinity', unit: 'ppth', low: 0.02, high: 30, decimals: 2, method: 'field' },
  { name: 'Depth, Secchi disk depth', unit: 'm', low: 0.4, high: 7, decimals: 2, method: 'field', media: 'surface' },
  { name: 'Copper', unit: 'ug/L', low: 0.2, high: 6, decimals: 3, method: 'lab', fraction: 'Total' },
  { name: 'Zinc', unit: 'ug/L', low: 0.5, high: 25, decimals: 2, method: 'lab', fraction: 'Total' },
  { name: 'Iron', unit: 'ug/L', low: 10, high: 900, decimals: 1, method: 'lab', fraction: 'Total' },
];

/** ActivityType per method, with its ActivityGroupType (lookup/ActivityType-ActivityGroupType.json). */
export const ACTIVITY_BY_METHOD: Record<Method, { type: string; group: string }> = {
  logger: { type: 'Field Msr/Obs-Portable Data Logger', group: 'Field Measure' },
  field: { type: 'Field Msr/Obs', group: 'Field Measure' },
  lab: { type: 'Sample-Routine', group: 'Lab Sample' },
};

export const SURFACE_LOCATION_TYPES = [
  'River/Stream',
  'River/Stream',
  'River/Stream',
  'Lake/Pond',
  'Lake/Pond',
  'Estuary',
  'Wetland',
  'Reservoir',
  'Great Lake',
  'Pond-Stormwater',
  'Canal Drainage',
];
export const GROUND_LOCATION_TYPES = ['Well', 'Spring', 'Piezometer'];

export const EQUIPMENT_BY_METHOD: Record<Method, readonly string[]> = {
  logger: ['Probe/Sensor'],
  field: ['Probe/Sensor', 'Secchi Disk', 'Turbidimeter', 'pH Paper'],
  lab: ['Water Bottle', 'Van Dorn Bottle', 'Kemmerer Bottle', 'Pump/Peristaltic', 'Whirl-pak bag'],
};

export const LABORATORIES = [
  'ALS Environmental',
  'Bureau Veritas',
  'SGS Canada',
  'Maxxam Analytics',
  'Caduceon Environmental Laboratories',
];
export const ANALYTICAL_METHODS: readonly { id: string; context: string; name: string }[] = [
  { id: '4500-P E', context: 'APHA', name: 'Phosphorus by ascorbic acid' },
  { id: '4500-NH3 G', context: 'APHA', name: 'Ammonia by automated phenate' },
  { id: '300.0', context: 'USEPA', name: 'Anions by ion chromatography' },
  { id: '200.8', context: 'USEPA', name: 'Metals by ICP-MS' },
  { id: '9223 B', context: 'APHA', name: 'Enzyme substrate coliform test' },
];

export const PROVINCES: Record<string, { name: string; hub?: string; lat: [number, number]; lon: [number, number] }> = {
  bc: { name: 'British Columbia', hub: 'pacific', lat: [48.4, 58.5], lon: [-129.5, -116.5] },
  yt: { name: 'Yukon', hub: 'pacific', lat: [60.2, 68.5], lon: [-139.5, -125.0] },
  ab: { name: 'Alberta', hub: 'mackenzie', lat: [49.2, 59.5], lon: [-119.5, -110.2] },
  nt: { name: 'Northwest Territories', hub: 'mackenzie', lat: [60.2, 68.8], lon: [-132.0, -103.0] },
  sk: { name: 'Saskatchewan', hub: 'lakewinnipeg', lat: [49.2, 59.5], lon: [-109.8, -102.2] },
  mb: { name: 'Manitoba', hub: 'lakewinnipeg', lat: [49.2, 58.5], lon: [-101.2, -95.3] },
  on: { name: 'Ontario', hub: 'greatlakes', lat: [42.2, 50.5], lon: [-94.5, -75.0] },
  qc: { name: 'Quebec', hub: 'greatlakes', lat: [45.1, 52.5], lon: [-79.0, -62.0] },
  nb: { name: 'New Brunswick', hub: 'atlantic', lat: [45.1, 47.9], lon: [-68.0, -64.3] },
  ns: { name: 'Nova Scotia', hub: 'atlantic', lat: [43.6, 46.9], lon: [-66.2, -60.1] },
  pe: { name: 'Prince Edward Island', hub: 'atlantic', lat: [46.0, 46.9], lon: [-64.3, -62.1] },
  nl: { name: 'Newfoundland and Labrador', hub: 'atlantic', lat: [46.8, 51.5], lon: [-59.3, -53.0] },
  nu: { name: 'Nunavut', lat: [62.0, 70.0], lon: [-100.0, -75.0] },
};

export const LICENCES: readonly { licence: string; disclaimer: string }[] = [
  { licence: 'https://opendatacommons.org/licenses/by/1-0/', disclaimer: '' },
  { licence: 'https://opendatacommons.org/licenses/pddl/1-0/', disclaimer: '' },
  {
    licence: 'https://open.canada.ca/en/open-government-licence-canada',
    disclaimer:
      'Contains information licensed under the Open Government Licence – Canada. The data steward provides this information as is and makes no warranty of its accuracy.',
  },
];

export const WATER_BODIES = [
  'Creek',
  'River',
  'Brook',
  'Lake',
  'Bay',
  'Marsh',
  'Pond',
  'Stream',
  'Harbour',
  'Reservoir',
];
export const PLACE_WORDS = [
  'Maple',
  'Cedar',
  'Otter',
  'Beaver',
  'Heron',
  'Loon',
  'Birch',
  'Willow',
  'Moose',
  'Salmon',
  'Granite',
  'Pine',
  'Elk',
  'Raven',
  'Spruce',
  'Trout',
  'Fox',
  'Cranberry',
  'Aspen',
  'Sturgeon',
];
export const ORGANIZATIONS = [
  'Watershed Stewards',
  'River Keepers',
  'Lake Association',
  'Conservation Authority',
  'Community Monitoring Network',
  'First Nation Guardians',
  'Environmental Society',
];
