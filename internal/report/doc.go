// Package report owns the rendering of results for people and tools: the
// prover's per-obligation report (text and JSON), derived theorems, and the
// hierarchy graph (dot, SVG, text). It computes nothing that decides a
// verdict; data is computed first and rendered second.
package report
