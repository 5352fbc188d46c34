CREATE TABLE `_System_RecordCommand` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key.',
  `CommandKey` varchar(128) NOT NULL COMMENT 'Idempotency key chosen by the caller.',
  `RecordType` varchar(128) NOT NULL COMMENT 'Type of the target record.',
  `RecordId` varchar(128) NOT NULL COMMENT 'Id of the target record.',
  `CommandKind` varchar(64) NOT NULL COMMENT 'What the command does.',
  `State` varchar(32) NOT NULL DEFAULT 'pending' COMMENT 'pending, running, succeeded, failed.',
  `Payload` longtext NOT NULL COMMENT 'Command arguments.' CHECK (json_valid(`Payload`)),
  `Outcome` longtext DEFAULT NULL COMMENT 'Result returned to callers that retry with the same key.' CHECK (json_valid(`Outcome`)),
  `OutcomeExpiresAt` datetime(6) DEFAULT NULL COMMENT 'When the stored outcome may be purged.',
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `UpdatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_record_command_key` (`CommandKey`) COMMENT 'Idempotent submission.',
  KEY `idx_record_command_outcome_expiry` (`State`,`OutcomeExpiresAt`,`Id`) COMMENT 'Purges expired outcomes by state.',
  KEY `idx_record_command_record` (`RecordType`,`RecordId`,`Id`) COMMENT 'The command history of one record.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Commands against records, with their outcome kept until it expires.';
