CREATE TABLE `_System_ConnectorRemoteLink` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key.',
  `LinkKey` varchar(255) NOT NULL COMMENT 'Opaque link key (connector, remote type, remote id); binary so equality is a point read.',
  `ConnectorKey` varchar(128) NOT NULL COMMENT 'The connector instance that owns the link.',
  `RemoteType` varchar(128) NOT NULL COMMENT 'Object type in the remote system.',
  `RemoteId` varchar(255) NOT NULL COMMENT 'Object id in the remote system.',
  `RemoteVersion` varchar(64) DEFAULT NULL COMMENT 'Remote version tag (ETag, revision) last seen.',
  `LocalRecordId` bigint(20) unsigned NOT NULL COMMENT 'The local record the remote object mirrors.',
  `State` varchar(32) NOT NULL DEFAULT 'active' COMMENT 'active, orphaned, deleted.',
  `LastSyncedAt` datetime(6) DEFAULT NULL COMMENT 'Last successful synchronisation.',
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `UpdatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_connector_remote_link_key` (`LinkKey`) COMMENT 'One link per link key.',
  KEY `idx_connector_remote_link_record` (`LocalRecordId`,`ConnectorKey`) COMMENT 'Finds the remote objects of a local record.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Links between local records and the objects a connector created in a remote system.';
