// The real-library corpus, shard 1 of 3 (corpus_suite.js).
import { corpusSuite } from './corpus_suite.js';

corpusSuite(1, 3);
