// Row shapes of the water-data entity sets, as far as the tests read them: the wire types leave rows open
// (`WaterPage<Row>` in src/shared/wire/waterData); the documented columns are in WATER_SELECT_FIELDS.
export interface LocationRow {
  Id: number;
  Name: string;
  DOI: string;
  Latitude: number;
  Longitude: number;
  MonitoringLocationType: string;
}

export interface MetadataRow {
  Id: string;
  DOI: string;
  DatasetName: string;
  Citation: string;
  Licence: string;
  Version: string;
  Keywords: string[];
  TopicCategoryCode: string[];
  TemporalExtent: string[];
}

export interface ObservationRow {
  Id: number;
  LocationId: number;
  CharacteristicName: string;
  ActivityMediaName: string;
  ActivityStartDate: string;
  ActivityStartTime: string;
  ResultValue: number | null;
  ResultUnit: string | null;
}
