// Marks a finished `npm run build`: bin/adaptmr.js runs dist/ only when this stamp is newer than every source file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

writeFileSync(join(import.meta.dirname, '..', 'dist', 'BUILT'), `${new Date().toISOString()}\n`);
