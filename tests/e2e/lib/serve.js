// Serves the fixture pages until killed; prints the base URL as its first line.
import { startFixtureServer } from './fixture_server.js';

const site = await startFixtureServer();
console.log(site.base);
process.on('SIGTERM', async () => { await site.close(); process.exit(0); });
