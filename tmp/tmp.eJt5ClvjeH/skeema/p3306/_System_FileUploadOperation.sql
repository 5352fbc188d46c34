CREATE TABLE `_System_FileUploadOperation` (
  `Id` bigint(20) unsigned NOT NULL AUTO_INCREMENT COMMENT 'Surrogate key.',
  `IdempotencyKey` varchar(128) NOT NULL COMMENT 'Client-chosen key; a retried upload finds its operation.',
  `State` varchar(32) NOT NULL DEFAULT 'pending' COMMENT 'pending, uploading, committed, aborted, expired.',
  `ObjectKey` varchar(512) NOT NULL COMMENT 'Key of the object in object storage.',
  `ContentType` varchar(255) DEFAULT NULL COMMENT 'MIME type declared by the client.',
  `SizeBytes` bigint(20) unsigned DEFAULT NULL COMMENT 'Size once known.',
  `Sha256Hex` char(64) DEFAULT NULL COMMENT 'Content digest once the upload is committed.',
  `ExpiresAt` datetime(6) DEFAULT NULL COMMENT 'When an unfinished operation may be cleaned up.',
  `CommittedAt` datetime(6) DEFAULT NULL COMMENT 'When the upload was committed.',
  `CreatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  `UpdatedAt` datetime(6) NOT NULL DEFAULT current_timestamp(6),
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_file_upload_idempotency` (`IdempotencyKey`) COMMENT 'Idempotent start of an upload.',
  KEY `idx_file_upload_expires` (`ExpiresAt`) COMMENT 'Expiry sweep.',
  KEY `idx_file_upload_lifecycle` (`State`,`ExpiresAt`,`Id`) COMMENT 'The upload-lifecycle worker pages through operations by state and expiry.'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT='Durable journal of uploads across the database and object storage.';
