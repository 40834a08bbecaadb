// Test seams: the internal commands host tests call before they have used a feature. They are stubs like
// the contributed ones (the first call loads the feature), and exist only under ExtensionMode.Test.
import type { Feature } from './chunks';

export const TEST_COMMANDS: Record<Feature, readonly string[]> = {
  discovery: [],
  storage: [
    'apiWorkbench.storage._testWatchNotifications',
    'apiWorkbench.storage._testViewDescription',
    'apiWorkbench.storage._testUri',
    'apiWorkbench.storage._testRun',
    'apiWorkbench.storage._testResolve',
    'apiWorkbench.storage._testLoadMore',
    'apiWorkbench.storage._testFaults',
    'apiWorkbench.storage._testConflictPrompts',
    'apiWorkbench.storage._testConflictChoice',
    'apiWorkbench.storage._testComments',
    'apiWorkbench.storage._testClient',
    'apiWorkbench.storage._testChildren',
    'apiWorkbench.storage._testAddComment',
  ],
  generation: [
    'apiWorkbench.generation._testSend',
    'apiWorkbench.generation._testWaitRendered',
    'apiWorkbench.generation._testWaitFinal',
    'apiWorkbench.generation._testWaitNextFinal',
    'apiWorkbench.generation._testSettings',
    'apiWorkbench.generation._testStop',
    'apiWorkbench.generation._testDecide',
    'apiWorkbench.generation._testNewChat',
    'apiWorkbench.generation._testReload',
    'apiWorkbench.generation._testLastRendered',
  ],
  waterData: [],
};
