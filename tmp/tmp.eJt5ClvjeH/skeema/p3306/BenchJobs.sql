CREATE TABLE `BenchJobs` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `State` varchar(32) NOT NULL,
  `Payload` varchar(255) DEFAULT NULL,
  `Note` varchar(64) DEFAULT NULL,
  PRIMARY KEY (`Id`),
  KEY `idx_bench_jobs_state` (`State`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
