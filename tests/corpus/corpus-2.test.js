// The real-library corpus, shard 2 of 3 (corpus_suite.js).
import { corpusSuite } from './corpus_suite.js';

corpusSuite(2, 3);
