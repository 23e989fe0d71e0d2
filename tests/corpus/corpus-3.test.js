// The real-library corpus, shard 3 of 3 (corpus_suite.js).
import { corpusSuite } from './corpus_suite.js';

corpusSuite(3, 3);
