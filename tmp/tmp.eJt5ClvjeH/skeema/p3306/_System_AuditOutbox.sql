CREATE TABLE `_System_AuditOutbox` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key; publication order.',
  `EventId` char(36) NOT NULL COMMENT 'Globally unique event id (UUID text).',
  `AggregateType` varchar(128) NOT NULL COMMENT 'Type of the audited object.',
  `AggregateId` varchar(128) NOT NULL COMMENT 'Id of the audited object.',
  `EventType` varchar(128) NOT NULL COMMENT 'What happened.',
  `Actor` varchar(255) DEFAULT NULL COMMENT 'Who did it, when known.',
  `Payload` longtext NOT NULL COMMENT 'Event body.' CHECK (json_valid(`Payload`)),
  `OccurredAt` datetime(6) NOT NULL DEFAULT current_timestamp(6) COMMENT 'When the audited change committed.',
  `PublishedAt` datetime(6) DEFAULT NULL COMMENT 'When the event was published; NULL while pending.',
  `PublishAttempts` int(10) unsigned NOT NULL DEFAULT 0 COMMENT 'Publication attempts so far.',
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_audit_outbox_event` (`EventId`) COMMENT 'Idempotent append.',
  KEY `idx_audit_outbox_pending` (`PublishedAt`,`Id`) COMMENT 'The publisher reads pending events in order.',
  KEY `idx_audit_outbox_aggregate` (`AggregateType`,`AggregateId`,`Id`) COMMENT 'The audit trail of one object.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Transactional outbox of audit events awaiting publication.';
