package policy

// FamilyPolicyType is the old name of FamilyPolicy.
// +enum
//
// Deprecated: use FamilyPolicy instead.
type FamilyPolicyType = FamilyPolicy
