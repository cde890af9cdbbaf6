/*
Copyright 2025 The Guestbook Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package v1

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
