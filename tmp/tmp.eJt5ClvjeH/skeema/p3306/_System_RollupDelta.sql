CREATE TABLE `_System_RollupDelta` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key.',
  `ExecutionScopeDigest` char(64) NOT NULL COMMENT 'SHA-256 hex digest of the execution scope; stands in for the wide scope columns in keys.',
  `RollupKey` varchar(255) NOT NULL COMMENT 'The aggregate the delta applies to.',
  `CreatedDate` date NOT NULL COMMENT 'Day bucket of the delta.',
  `DeltaValue` decimal(20,6) NOT NULL DEFAULT 0.000000 COMMENT 'Amount to add to the aggregate.',
  `DeltaCount` bigint(20) NOT NULL DEFAULT 0 COMMENT 'Count to add to the aggregate.',
  `Status` varchar(32) NOT NULL DEFAULT 'pending' COMMENT 'pending, claimed, applied, failed.',
  `Attempts` int(10) unsigned NOT NULL DEFAULT 0 COMMENT 'Fold attempts so far.',
  `NextAttemptAt` datetime(6) NOT NULL DEFAULT current_timestamp(6) COMMENT 'Earliest time a worker may claim the delta.',
  `LastError` text DEFAULT NULL COMMENT 'Last fold error, for operators.',
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  PRIMARY KEY (`Id`),
  KEY `idx_rollup_delta_claim` (`Status`,`NextAttemptAt`,`CreatedDate`,`Id`) COMMENT 'Workers claim due deltas oldest first.',
  KEY `idx_rollup_delta_scope` (`ExecutionScopeDigest`,`RollupKey`,`CreatedDate`) COMMENT 'Folds one scope''s deltas per aggregate and day.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Pending deltas to fold into rollup aggregates, claimed by rollup workers.';
