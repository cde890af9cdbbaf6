package policy

// FamilyPolicy is how many address families a service asks for.
// +enum
type FamilyPolicy string

const (
	// FamilyPolicySingle asks for one family.
	FamilyPolicySingle FamilyPolicy = "Single"
	// FamilyPolicyPrefer asks for two families where the cluster has them.
	FamilyPolicyPrefer FamilyPolicy = "Prefer"
)
