/*
Copyright 2025 The Guestbook Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeliveryMethod says how entries are delivered.
// +enum
type DeliveryMethod string

const (
	// DeliveryEmail sends every entry by email.
	DeliveryEmail DeliveryMethod = "Email"
	// DeliveryWebhook posts every entry to a webhook.
	DeliveryWebhook DeliveryMethod = "Webhook"
	// DeliveryManual keeps entries until an operator collects them.
	DeliveryManual DeliveryMethod = "Manual"
)

// Delivery is a kep1027 union with an empty member (Manual) and an optional member (Webhook).
type Delivery struct {
	// method selects the delivery mechanism.
	// +unionDiscriminator
	// +required
	Method DeliveryMethod `json:"method"`

	// email delivers entries by email.
	// +unionMember
	// +optional
	Email *EmailTarget `json:"email,omitempty"`

	// webhook posts entries to a URL; unset means the cluster's default webhook.
	// +unionMember,optional
	// +optional
	Webhook *WebhookTarget `json:"webhook,omitempty"`
}

// EmailTarget is a mailbox.
type EmailTarget struct {
	// address is the mailbox to write to.
	Address string `json:"address"`
}

// WebhookTarget is an HTTP endpoint.
type WebhookTarget struct {
	// url is the endpoint to post to.
	URL string `json:"url"`
}

// BackendType names a storage backend.
// +enum
type BackendType string

const (
	// BackendS3 stores entries in an S3 bucket.
	BackendS3 BackendType = "S3"
	// BackendGCS stores entries in a Google Cloud Storage bucket.
	BackendGCS BackendType = "GCS"
)

// CacheType names a cache in front of the storage backend.
// +enum
type CacheType string

const (
	// CacheNone means no cache.
	CacheNone CacheType = ""
	// CacheMemory keeps recent entries in memory.
	CacheMemory CacheType = "Memory"
	// CacheRedis keeps recent entries in Redis.
	CacheRedis CacheType = "Redis"
)

// Storage holds two kep1027 unions: the backend and the cache.
type Storage struct {
	// backend selects where entries are stored.
	// +unionDiscriminator
	// +required
	Backend BackendType `json:"backend"`

	// s3 is the bucket used when backend is S3.
	// +unionMember
	// +unionDiscriminatedBy=Backend
	// +optional
	S3 *Bucket `json:"s3,omitempty"`

	// gcs is the bucket used when backend is GCS.
	// +unionMember
	// +unionDiscriminatedBy=Backend
	// +optional
	GCS *Bucket `json:"gcs,omitempty"`

	// cache selects a cache in front of the backend.
	// +unionDiscriminator
	// +optional
	Cache CacheType `json:"cache,omitempty"`

	// memory sizes the in-memory cache; unset means the default size.
	// +unionMember,optional
	// +unionDiscriminatedBy=Cache
	// +optional
	Memory *MemoryCache `json:"memory,omitempty"`

	// redis is the Redis server used as a cache.
	// +unionMember
	// +unionDiscriminatedBy=Cache
	// +optional
	Redis *RedisCache `json:"redis,omitempty"`
}

// Bucket is an object storage bucket.
type Bucket struct {
	// name of the bucket.
	Name string `json:"name"`
}

// MemoryCache sizes an in-memory cache.
type MemoryCache struct {
	// entries is the number of entries kept.
	// +optional
	Entries int32 `json:"entries,omitempty"`
}

// RedisCache is a Redis server.
type RedisCache struct {
	// address is host:port of the server.
	Address string `json:"address"`
}

// Frontend configures the web frontend; its exposure union comes from an inlined struct.
type Frontend struct {
	// replicas is the number of frontend pods.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	ExposureSource `json:",inline"`
}

// ExposureType says how the frontend is reached.
// +enum
type ExposureType string

const (
	// ExposureClusterIP reaches the frontend from inside the cluster only.
	ExposureClusterIP ExposureType = "ClusterIP"
	// ExposureIngress reaches the frontend through an Ingress.
	ExposureIngress ExposureType = "Ingress"
	// ExposureLoadBalancer reaches the frontend through a load balancer.
	ExposureLoadBalancer ExposureType = "LoadBalancer"
)

// ExposureSource is a kep1027 union meant to be inlined.
type ExposureSource struct {
	// exposure selects how the frontend is reached.
	// +unionDiscriminator
	// +required
	Exposure ExposureType `json:"exposure"`

	// ingress configures the Ingress.
	// +unionMember
	// +optional
	Ingress *IngressExposure `json:"ingress,omitempty"`

	// loadBalancer configures the load balancer.
	// +unionMember
	// +optional
	LoadBalancer *LoadBalancerExposure `json:"loadBalancer,omitempty"`
}

// IngressExposure configures an Ingress.
type IngressExposure struct {
	// host is the public host name.
	Host string `json:"host"`
}

// LoadBalancerExposure configures a load balancer.
type LoadBalancerExposure struct {
	// port is the public port.
	Port int32 `json:"port"`
}

// Notification is a kep2022 union: its discriminator is a plain optional string.
type Notification struct {
	// name identifies the notification.
	Name string `json:"name"`

	// channel selects the notification channel.
	// +unionDiscriminator
	// +optional
	Channel string `json:"channel,omitempty"`

	// slack is the Slack channel to post to.
	// +unionMember
	// +optional
	Slack *string `json:"slack,omitempty"`

	// pager is the pager rotation to page.
	// +unionMember
	// +optional
	Pager *string `json:"pager,omitempty"`
}

// Retention is a kep2019 union: every field but the discriminator is a member.
// +union
type Retention struct {
	// policy names the retention field that is set.
	// +unionDiscriminator
	// +optional
	Policy string `json:"policy,omitempty"`

	// days keeps entries for this many days.
	// +optional
	Days *int32 `json:"days,omitempty"`

	// count keeps this many entries.
	// +optional
	Count *int32 `json:"count,omitempty"`
}

// ScheduleKind says how a schedule is expressed.
// +k8s:enum
type ScheduleKind string

const (
	// ScheduleCron is a cron expression.
	ScheduleCron ScheduleKind = "Cron"
	// ScheduleInterval is a fixed interval.
	ScheduleInterval ScheduleKind = "Interval"
)

// Schedule is a union written with Kubernetes declarative validation markers.
type Schedule struct {
	// kind selects how the schedule is expressed.
	// +k8s:unionDiscriminator(union: "trigger")
	// +k8s:required
	Kind ScheduleKind `json:"kind"`

	// cron is a cron expression.
	// +k8s:unionMember(union: "trigger", memberName: "Cron")
	// +k8s:optional
	Cron *string `json:"cron,omitempty"`

	// interval is the time between two runs.
	// +k8s:unionMember(union: "trigger", memberName: "Interval")
	// +k8s:optional
	Interval *metav1.Duration `json:"interval,omitempty"`
}

// BackupTarget is an undiscriminated union: at most one target may be set.
type BackupTarget struct {
	// namespace copies entries into another namespace of this cluster.
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	Namespace *string `json:"namespace,omitempty"`

	// pvc-name copies entries to a persistent volume claim.
	// +k8s:zeroOrOneOfMember
	// +k8s:optional
	PVCName *string `json:"pvc-name,omitempty"`
}
