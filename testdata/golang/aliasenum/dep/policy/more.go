package policy

// FamilyPolicyRequire asks for two families, or fails.
const FamilyPolicyRequire FamilyPolicy = "Require"
