// Wire shapes of discovery.apis.list and apis.getRest (reference §6), shared by the directory
// emulator and the directory view's client.

export const DIRECTORY_PATH_PREFIX = '/discovery/v1';

export interface DirectoryItem {
  kind: 'discovery#directoryItem';
  /** `name:version` */
  id: string;
  name: string;
  version: string;
  title?: string;
  description?: string;
  discoveryRestUrl: string;
  /** Relative link such as `./apis/drive/v2/rest`; only some items carry it. */
  discoveryLink?: string;
  icons?: { x16?: string; x32?: string };
  documentationLink?: string;
  labels?: string[];
  preferred: boolean;
}

export interface DirectoryList {
  kind: 'discovery#directoryList';
  discoveryVersion: 'v1';
  items?: DirectoryItem[];
}

/** Google's error envelope, as the directory returns it. */
export interface DirectoryError {
  error: {
    code: number;
    message: string;
    errors?: { domain: string; reason: string; message: string }[];
    status: string;
  };
}
