package openshift

// openshift/api's house style: `+union` on the struct, `+unionDiscriminator` on the
// discriminator, `+unionMember` / `+unionMember,optional` on exactly the member fields
// (other fields are settings every variant shares), enum values from
// `+kubebuilder:validation:Enum` in each spelling openshift/api writes, and struct
// members made optional with Go 1.24's omitzero. One consistent union each: no MG404,
// no MG302, no MG004.

// RelabelAction is the action to perform.
// +kubebuilder:validation:Enum=Replace;Keep;Drop;HashMod;Lowercase;
type RelabelAction string

// RelabelActionConfig represents the action to perform and its configuration.
// +kubebuilder:validation:XValidation:rule="self.type == 'Replace' ? has(self.replace) : !has(self.replace)",message="replace is required when type is Replace, and forbidden otherwise"
// +union
type RelabelActionConfig struct {
	// type is the action to perform.
	// +required
	// +unionDiscriminator
	Type RelabelAction `json:"type,omitempty"`

	// replace configures the Replace action.
	// +unionMember
	// +optional
	Replace ReplaceActionConfig `json:"replace,omitempty,omitzero"`

	// hashMod configures the HashMod action.
	// +unionMember
	// +optional
	HashMod HashModActionConfig `json:"hashMod,omitempty,omitzero"`
}

type ReplaceActionConfig struct {
	// +required
	TargetLabel string `json:"targetLabel,omitempty"`
}

type HashModActionConfig struct {
	// +required
	Modulus int64 `json:"modulus,omitempty"`
}

// IPsecMode enumerates the modes for IPsec configuration.
// +kubebuilder:validation:Enum:=Disabled;External;Full
type IPsecMode string

// IPsecConfig has an optional member (`,optional`) and a shared setting.
// +union
type IPsecConfig struct {
	// +unionDiscriminator
	// +required
	Mode IPsecMode `json:"mode"`

	// full may stay empty when mode is Full.
	// +unionMember,optional
	// +optional
	Full *IPsecFullModeConfig `json:"full,omitempty"`

	// logLevel is shared by every mode: not a member.
	// +optional
	LogLevel string `json:"logLevel,omitempty"`
}

type IPsecFullModeConfig struct {
	// +optional
	Encapsulation string `json:"encapsulation,omitempty"`
}

// AuthType is the quoted spelling.
// +kubebuilder:validation:Enum:="BasicAuth";"SigV4";"ServiceAccount"
type AuthType string

// RemoteWriteAuthorization has a member whose Go name is no enum value (`Sigv4` and
// `SigV4`): MG340 names the value; the member gets no rule.
// +union
type RemoteWriteAuthorization struct {
	// +unionDiscriminator
	// +required
	Type AuthType `json:"type,omitempty"`

	// +unionMember
	// +optional
	BasicAuth *string `json:"basicAuth,omitempty"`

	// want "MG340" "Sigv4.*not a value of Type"
	// +unionMember
	// +optional
	Sigv4 *string `json:"sigv4,omitempty"`
}

// The trailing `;` spelling on a field.
type GCPMachineProviderSpec struct {
	// +kubebuilder:validation:Enum=Migrate;Terminate;
	// +optional
	OnHostMaintenance string `json:"onHostMaintenance,omitempty"`
}

// EncryptionType's values depend on feature gates: each gate's line lists them all.
// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum="";identity;aescbc
// +openshift:validation:FeatureGateAwareEnum:featureGate=KMSEncryption,enum="";identity;aescbc;KMS
type EncryptionType string

// +union
type APIServerEncryption struct {
	// +unionDiscriminator
	// +optional
	Type EncryptionType `json:"type,omitempty"`

	// +openshift:enable:FeatureGate=KMSEncryption
	// +unionMember
	// +optional
	KMS *string `json:"kms,omitempty"`
}

// +kubebuilder:validation:Enum=LoadBalancerService;HostNetwork;Private
type EndpointPublishingStrategyType string

// EndpointPublishingStrategy is an implicit kep2019 union (every field but the
// discriminator is a member, valued by its Go name): `LoadBalancer` is selected by the
// enum value `LoadBalancerService`, a value no member name matches.
// +union
type EndpointPublishingStrategy struct {
	// +unionDiscriminator
	// +required
	Type EndpointPublishingStrategyType `json:"type"`

	// +optional
	LoadBalancer *string `json:"loadBalancer,omitempty"`

	// +optional
	HostNetwork *string `json:"hostNetwork,omitempty"`
}
