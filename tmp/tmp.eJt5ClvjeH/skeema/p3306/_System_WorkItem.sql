CREATE TABLE `_System_WorkItem` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key; FIFO order within a lane.',
  `WorkItemKey` varchar(128) NOT NULL COMMENT 'Idempotency key chosen by the producer.',
  `SourceLane` varchar(128) NOT NULL COMMENT 'Lane the item came from.',
  `TargetLane` varchar(128) NOT NULL COMMENT 'Lane the item is queued on.',
  `State` varchar(32) NOT NULL DEFAULT 'queued' COMMENT 'queued, claimed, done, failed.',
  `Priority` int(11) NOT NULL DEFAULT 0 COMMENT 'Higher runs first within a lane.',
  `AvailableAt` datetime(6) NOT NULL DEFAULT current_timestamp(6) COMMENT 'Earliest time a worker may claim the item.',
  `ClaimedBy` varchar(128) DEFAULT NULL COMMENT 'Worker holding the claim.',
  `ClaimExpiresAt` datetime(6) DEFAULT NULL COMMENT 'When the claim lapses.',
  `Payload` longtext NOT NULL COMMENT 'Work description.' CHECK (json_valid(`Payload`)),
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `UpdatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `TouchedAt` datetime(6) DEFAULT NULL ON UPDATE current_timestamp(6) COMMENT 'Stamped by the server on every UPDATE of the row (ON UPDATE), so the reaper sees claim renewals and state changes even from a worker that does not set UpdatedAt. A new nullable column rather than ON UPDATE on UpdatedAt: that would be drift on every retained installation.',
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_work_item_key` (`WorkItemKey`) COMMENT 'Idempotent enqueue.',
  KEY `idx_work_item_source_lane` (`SourceLane`,`State`,`Id`) COMMENT 'What a lane has handed on, by state.',
  KEY `idx_work_item_target_lane` (`TargetLane`,`State`,`AvailableAt`,`Id`) COMMENT 'Workers claim due items of their lane.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Work items moving between lanes of the durable work queue.';
