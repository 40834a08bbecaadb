// Registers the mutating and secondary resources; the read routes of files live in read.ts.
import type { Router } from '../router';
import type { StorageService } from '../service';
import { registerChangeRoutes } from './changes';
import { registerCommentRoutes } from './comments';
import { registerDriveRoutes } from './drives';
import { registerFileRoutes } from './files';
import { registerSharingRoutes } from './sharing';
import { registerPropertyRoutes } from './properties';
import { registerRevisionRoutes } from './revisions';
import { registerAppRoutes } from './apps';
import { registerUploadRoutes } from './uploads';

export function registerRoutes(r: Router<StorageService>): void {
  registerFileRoutes(r);
  registerUploadRoutes(r);
  registerDriveRoutes(r);
  registerChangeRoutes(r);
  registerCommentRoutes(r);
  registerSharingRoutes(r);
  registerPropertyRoutes(r);
  registerRevisionRoutes(r);
  registerAppRoutes(r);
}
